"""Bounded reading of untrusted notebooks and archives: every refusal has its reason, and one
hostile file never stops the rest of the class from being collected."""

from __future__ import annotations

import csv
import io
import json
import tarfile
import zipfile

import nbformat
import pytest

from autograder.engine.cases import exercises
from autograder.pipeline.intake.bounds import MIB, Bounds, Refused, nesting_depth, parse, read_capped
from autograder.pipeline.intake.collect import collect
from tests.catalog.views import RIGHT
from tests.conftest import released_copy

CHAPTER = "views"


class Endless(io.RawIOBase):
    """A stream that never ends (a decompression bomb), counting what was taken from it."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = b" " * len(buffer)
        self.taken += len(buffer)
        return len(buffer)


def test_nesting_depth_is_measured_without_recursion_and_ignores_brackets_in_strings() -> None:
    assert nesting_depth(b'{"a": [1, {"b": "[[[[{{{"}]}') == 3
    assert nesting_depth(b'{"a": "quote \\" [[[ "}') == 1
    assert nesting_depth(b"[" * 1_000_000 + b"]" * 1_000_000) == 1_000_000


def test_reading_stops_at_the_limit_of_an_endless_stream() -> None:
    stream = Endless()
    with pytest.raises(Refused, match="larger than 1 MiB once unpacked"):
        read_capped(io.BufferedReader(stream, buffer_size=4096), MIB)
    assert stream.taken <= MIB + 8192, "read past the limit"
    assert read_capped(io.BytesIO(b"x" * 10), 10) == b"x" * 10


def test_parse_refuses_deep_nesting_and_too_many_cells_and_drops_huge_outputs() -> None:
    deep = b'{"cells": [], "metadata": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    with pytest.raises(Refused, match="nests 100002 levels deep, over the limit of 64"):
        parse(deep, Bounds())
    many = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("") for _ in range(20_000)]))
    with pytest.raises(Refused, match="has 20000 cells, over the limit of 2000"):
        parse(many.encode(), Bounds())
    cell = nbformat.v4.new_code_cell("print('x' * 5_000_000)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="x" * 5 * MIB)])
    notebook, notes = parse(nbformat.writes(nbformat.v4.new_notebook(cells=[cell])).encode(), Bounds())
    assert notebook.cells[0].outputs == [] and notebook.cells[0].source == cell.source
    assert "stored outputs (5 MiB) were dropped" in notes[0]
    with pytest.raises(Refused, match="corrupt notebook"):
        parse(b'{"cells": [', Bounds())
    with pytest.raises(Refused, match="corrupt notebook"):
        parse(b'[1, 2]', Bounds())


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("bounds") / "course", [CHAPTER])
    return course


def _answered(course) -> str:
    notebook = nbformat.read(course.release_notebook(CHAPTER), as_version=4)
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    for cell in notebook.cells:
        grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        if grade_id in right:
            cell.source = right[grade_id]
    return nbformat.writes(notebook)


def _hostile(course) -> dict[str, bytes]:
    good = _answered(course)
    deep = json.loads(good)
    deep["metadata"]["x"] = "nested"
    deep_text = json.dumps(deep).replace('"nested"', "[" * 50_000 + "]" * 50_000)
    huge_output = json.loads(good)
    code = next(c for c in huge_output["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "y" * 6 * MIB}]
    many = json.loads(good)
    many["cells"] += [{"cell_type": "markdown", "metadata": {}, "source": "", "id": f"pad{i}"}
                      for i in range(30_000)]
    return {
        f"ada/{CHAPTER}.ipynb": good.encode(),
        f"deep_{CHAPTER}.ipynb": deep_text.encode(),
        f"bomb_{CHAPTER}.ipynb": good.encode() + b" " * (20 * MIB),
        f"loud_{CHAPTER}.ipynb": json.dumps(huge_output).encode(),
        f"many_{CHAPTER}.ipynb": json.dumps(many).encode(),
        f"zed/{CHAPTER}.ipynb": good.encode(),
    }


def _reasons(course) -> dict[str, tuple[str, str]]:
    with (course.submitted / f"{CHAPTER}-collect.csv").open() as handle:
        return {row["file"]: (row["action"], row["reason"]) for row in csv.DictReader(handle)}


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_collect_refuses_each_hostile_file_with_its_reason_and_collects_the_rest(course, tmp_path, kind) -> None:
    archive = tmp_path / f"class.{kind}"
    files = _hostile(course)
    if kind == "zip":
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for name, data in files.items():
                bundle.writestr(name, data)
            bundle.writestr(zipfile.ZipInfo("escape/../../x.ipynb"), b"{}")
    else:
        with tarfile.open(archive, "w:gz") as bundle:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                bundle.addfile(info, io.BytesIO(data))
            link = tarfile.TarInfo(f"link_{CHAPTER}.ipynb")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            bundle.addfile(link)
    assert archive.stat().st_size < 2 * MIB, "the bomb must be small packed"

    students, _ = collect(course, CHAPTER, archive)

    assert students == ["ada", "loud", "zed"]
    reasons = _reasons(course)
    assert reasons[f"deep_{CHAPTER}.ipynb"] == ("refused", reasons[f"deep_{CHAPTER}.ipynb"][1])
    assert "nests 50002 levels deep" in reasons[f"deep_{CHAPTER}.ipynb"][1]
    assert "once unpacked" in reasons[f"bomb_{CHAPTER}.ipynb"][1]
    assert "16 MiB (--max-notebook-bytes)" in reasons[f"bomb_{CHAPTER}.ipynb"][1]
    cells = len(json.loads(files[f"ada/{CHAPTER}.ipynb"])["cells"]) + 30_000
    assert f"{cells} cells, over the limit of 2000" in reasons[f"many_{CHAPTER}.ipynb"][1]
    assert reasons[f"loud_{CHAPTER}.ipynb"][0] == "collected"
    assert "stored outputs (6 MiB) were dropped" in reasons[f"loud_{CHAPTER}.ipynb"][1]
    special = "escape/../../x.ipynb" if kind == "zip" else f"link_{CHAPTER}.ipynb"
    assert "never unpacked" in reasons[special][1]
    loud = course.submitted / "loud" / CHAPTER / f"{CHAPTER}.ipynb"
    assert loud.stat().st_size < MIB
    assert not (course.submitted / "bomb").exists() and not (course.submitted / "deep").exists()
    assert not (course.root.parent / "x.ipynb").exists()


def test_an_archive_past_its_total_or_member_count_is_read_up_to_the_limit(course, tmp_path) -> None:
    archive = tmp_path / "many.zip"
    good = _answered(course).encode()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for n in range(6):
            bundle.writestr(f"s{n}/{CHAPTER}.ipynb", good)
    per_notebook = len(good)
    students, problems = collect(course, CHAPTER, archive, Bounds(total_bytes=3 * per_notebook + 10))
    assert students == ["s0", "s1", "s2"]
    assert {p.path for p in problems if "unpacks to more than" in p.reason} == {
        f"s{n}/{CHAPTER}.ipynb" for n in (3, 4, 5)}
    students, problems = collect(course, CHAPTER, archive, Bounds(members=4))
    assert students == ["s0", "s1", "s2", "s3"]
    assert [p.path for p in problems if "more than 4 files" in p.reason] == [f"s4/{CHAPTER}.ipynb"]


def test_collect_from_a_folder_never_follows_a_link(course, tmp_path) -> None:
    folder = tmp_path / "downloads"
    (folder / "ada").mkdir(parents=True)
    (folder / "ada" / f"{CHAPTER}.ipynb").write_text(_answered(course))
    (folder / f"eve_{CHAPTER}.ipynb").symlink_to("/etc/passwd")
    students, problems = collect(course, CHAPTER, folder)
    assert students == ["ada"]
    assert {p.path: p.reason for p in problems}[f"eve_{CHAPTER}.ipynb"].startswith("not a regular file")

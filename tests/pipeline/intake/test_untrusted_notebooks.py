"""No notebook stops the day: JSON that is almost a notebook (keys missing or mistyped, other nbformat
versions, cells that are not objects, huge or deep values) goes through every reader of untrusted
notebooks — ``collect``, the bounds, the metadata checks, ``grade``'s reading of ``submitted/`` — as
a row that says why, never a traceback, and the rest of the class goes on."""

from __future__ import annotations

import copy
import csv
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.pipeline.course import Course, read_notebook
from autograder.pipeline.gradebook.flags import Flag
from autograder.pipeline.gradebook.ledger import Ledger
from autograder.pipeline.grading import verdict
from autograder.pipeline.grading.grade import admitted
from autograder.pipeline.intake import integrity
from autograder.pipeline.intake.bounds import Bounds, Refused, parse
from autograder.pipeline.intake.collect import collect
from tests.conftest import released_copy

CHAPTER = "views-closed-book"
DEEP = "nested deeper than a learner's notebook"
VALUES = st.sampled_from([None, 0, 1, -1, 1.5, True, "", "x", "4", [], [1], {}, {"a": 1}])
CELL_KEYS = ["cell_type", "source", "metadata", "outputs", "execution_count", "id", "attachments"]
TOP_KEYS = ["nbformat", "nbformat_minor", "metadata", "cells"]
NBGRADER = st.sampled_from([None, 1, "x", [], {}, {"grade_id": 5}, {"grade_id": ["a"]}, {"grade_id": None},
                            {"grade": "yes", "grade_id": "views-reproduce", "points": "many", "solution": 1},
                            {"grade": True, "grade_id": "views-reproduce-tests", "locked": "no", "schema_version": 9}])


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("untrusted") / "course", [CHAPTER])
    return course


@pytest.fixture(scope="module")
def edition(course) -> dict:
    return json.loads(course.release_notebook(CHAPTER).read_text())


@st.composite
def mutations(draw) -> list[tuple]:
    """A few edits that each make a notebook almost, not quite, an nbformat 4 notebook."""
    # Edits that leave valid nbformat (mistyped nbgrader metadata, huge or deep values) reach past the
    # bounds into reconciliation and the checks: they are drawn as often as all the others together.
    kinds = st.sampled_from(["nbgrader"] * 6 + ["huge", "deep", "drop-top", "retype-top", "version",
                                                 "drop-cell-key", "retype-cell-key", "not-object", "v3", "truncate"])
    edits = []
    for kind in draw(st.lists(kinds, min_size=1, max_size=3)):
        if kind in ("drop-top", "retype-top"):
            edits.append((kind, draw(st.sampled_from(TOP_KEYS)), draw(VALUES)))
        elif kind == "version":
            edits.append((kind, draw(st.sampled_from([1, 2, 3, 5, "4", 4.0, True, None, -4])), None))
        elif kind in ("drop-cell-key", "retype-cell-key"):
            edits.append((kind, draw(st.integers(0, 200)), (draw(st.sampled_from(CELL_KEYS)), draw(VALUES))))
        elif kind == "not-object":
            edits.append((kind, draw(st.integers(0, 200)), draw(VALUES.filter(lambda v: not isinstance(v, dict)))))
        elif kind == "nbgrader":
            edits.append((kind, draw(st.integers(0, 200)), draw(NBGRADER)))
        elif kind == "huge":
            edits.append((kind, draw(st.integers(0, 200)), draw(st.sampled_from([10_000, 300_000]))))
        elif kind == "deep":
            edits.append((kind, None, draw(st.sampled_from([8, 40, 63, 70, 5_000]))))
        else:
            edits.append((kind, None, draw(st.integers(1, 5_000)) if kind == "truncate" else None))
    return edits


def almost(edition: dict, edits: list[tuple]) -> bytes:
    """The student edition with ``edits`` applied, as bytes a learner could hand in."""
    notebook = copy.deepcopy(edition)
    cut, depth = None, 0
    for kind, where, what in edits:
        cells = notebook.get("cells") if isinstance(notebook, dict) else None
        cell = cells[where % len(cells)] if isinstance(where, int) and isinstance(cells, list) and cells else None
        if kind == "drop-top" and isinstance(notebook, dict):
            notebook.pop(where, None)
        elif kind == "retype-top" and isinstance(notebook, dict):
            notebook[where] = what
        elif kind == "version" and isinstance(notebook, dict):
            notebook["nbformat"] = what
        elif kind == "drop-cell-key" and isinstance(cell, dict):
            cell.pop(what[0], None)
        elif kind == "retype-cell-key" and isinstance(cell, dict):
            cell[what[0]] = what[1]
        elif kind == "not-object" and cell is not None:
            cells[where % len(cells)] = what
        elif kind == "nbgrader" and isinstance(cell, dict) and isinstance(cell.get("metadata"), dict):
            cell["metadata"]["nbgrader"] = what
        elif kind == "huge" and isinstance(cell, dict):
            cell["source"] = "x = 1  # " + "ü" * what
        elif kind == "deep" and isinstance(notebook, dict):
            notebook.setdefault("metadata", {})
            if isinstance(notebook["metadata"], dict):
                notebook["metadata"]["deep"], depth = DEEP, what  # spliced in as text: too deep to dump
        elif kind == "v3":
            notebook = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": cells or []}]}
        elif kind == "truncate":
            cut = what
    data = json.dumps(notebook).encode()
    data = data.replace(json.dumps(DEEP).encode(), b"[" * depth + b"0" + b"]" * depth)
    return data[:cut] if cut else data


def _read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(mutations(), min_size=1, max_size=4))
def test_collect_refuses_with_a_row_and_collects_the_rest(course, edition, tmp_path_factory, batch) -> None:
    folder = tmp_path_factory.mktemp("batch")
    archive = folder / "download.zip"
    good = json.dumps(edition).encode()
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(f"good_{CHAPTER}.ipynb", good)
        for index, edits in enumerate(batch):
            bundle.writestr(f"s{index}_{CHAPTER}.ipynb", almost(edition, edits))
    students, problems = collect(course, CHAPTER, archive)
    assert "good" in students
    refused = {p.path for p in problems if p.action == "refused"}
    for index in range(len(batch)):
        name = f"s{index}_{CHAPTER}.ipynb"
        assert (f"s{index}" in students) != (name in refused), name
    for problem in problems:
        assert problem.reason and "Traceback" not in problem.reason
    rows = _read_rows(course.submitted / f"{CHAPTER}-collect.csv")  # merged with the earlier examples' rows
    names = {f"s{index}_{CHAPTER}.ipynb" for index in range(len(batch))}
    assert {r["file"] for r in rows if r["action"] == "refused" and r["file"] in names} == refused
    assert {r["file"]: r["student"] for r in rows if r["file"] in refused} == \
        {name: name.split("_")[0] for name in refused}, "a refused file keeps the student its name gives"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(mutations(), min_size=1, max_size=4))
def test_grade_reads_what_another_route_put_in_submitted(tmp_path_factory, edition, batch) -> None:
    """What nbgrader's exchange (or anything else) put in ``submitted/`` is read as ``grade`` reads it:
    the limits, reconciliation, the tamper check, the sandbox's plan and the ledger."""
    course = Course(tmp_path_factory.mktemp("submitted"))  # a course root: the student edition is all it needs
    (course.release / CHAPTER).mkdir(parents=True)
    course.release_notebook(CHAPTER).write_text(json.dumps(edition))
    for index, edits in enumerate(batch):
        path = course.submitted / f"s{index}" / CHAPTER / f"{CHAPTER}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_bytes(almost(edition, edits))
    flags: list[Flag] = []
    assert len(Ledger.of(course, CHAPTER).check(course, CHAPTER, course.gradebook_url, Bounds()).todo) == len(batch)
    chosen = admitted(course, CHAPTER, flags)
    refused = {f.student for f in flags if f.reason.startswith("not graded: ")}
    assert {s for s, _ in chosen} | refused == {f"s{i}" for i in range(len(batch))}
    assert not {s for s, _ in chosen} & refused
    checksums = integrity.test_cell_checksums(course.release_notebook(CHAPTER))
    key = verdict.Key.of(CHAPTER, 1)
    released = read_notebook(course.release_notebook(CHAPTER))
    for _, path in chosen:
        integrity.check_submission(checksums, path)  # the learner's file as submitted: read, never a traceback
        verdict.plan(read_notebook(path), released, key)


def test_a_test_cell_without_its_points_is_altered_not_a_traceback(course, edition, tmp_path) -> None:
    """nbgrader's checksum reads a graded cell's ``points``: a submission that dropped them has an
    altered test cell (its exercise scores 0), and the tamper check says so instead of raising."""
    notebook = copy.deepcopy(edition)
    cell = next(c for c in notebook["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "views-reproduce-tests")
    del cell["metadata"]["nbgrader"]["points"]
    submission = tmp_path / "submitted" / "s0" / CHAPTER / f"{CHAPTER}.ipynb"
    submission.parent.mkdir(parents=True)
    submission.write_text(json.dumps(notebook))
    found = integrity.check_submission(integrity.test_cell_checksums(course.release_notebook(CHAPTER)), submission)
    assert [(f.grade_id, "was altered" in f.reason) for f in found] == [("views-reproduce-tests", True)]


@pytest.mark.parametrize(("data", "reason"), [
    (b'{"nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": []}], "metadata": {}}', "an nbformat 3 notebook"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}', "its cells are missing, not a list"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [1]}', "cell 1 is a number, not an object"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": {}}', "its cells are an object, not a list"),
    (b'{"nbformat": "4", "cells": []}', 'its nbformat version is "4", not 4'),
    (b'{"cells": []}', "its nbformat version is none, not 4"),
    (b'"a notebook"', "JSON, but a string"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": 7}]}', "corrupt notebook"),
])
def test_each_refusal_says_what_the_file_is_instead(data: bytes, reason: str) -> None:
    with pytest.raises(Refused, match=reason.replace("(", r"\(")):
        parse(data, Bounds())

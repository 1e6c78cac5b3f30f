"""One class with accidents and hostile files in ``submitted/``, graded by the sandboxed grader and
by plain nbgrader: every exercise that can be graded is, each case is flagged with its reason, a
file over a limit is refused with its reason, and the rest of the class keeps every point."""

from __future__ import annotations

import copy
import csv
import json
import re

import nbformat
import pytest

from autograder.engine.cases import exercises
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.gradebook.flags import NBGRADER_COULD_NOT_RUN
from autograder.pipeline.grading.grade import Flag, autograde, scores
from autograder.pipeline.intake.bounds import MIB
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import released_copy
from tests.submissions import submit, write_submission
from tests.warm_kernels import forked_kernels

pytestmark = pytest.mark.nbgrader
CHAPTER = "views"
ANSWERS = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}


def _cells(path):
    notebook = nbformat.read(path, as_version=4)
    return notebook, notebook.cells


def _index(cells, grade_id: str) -> int:
    return next(i for i, c in enumerate(cells) if nbgrader_meta(c).get("grade_id") == grade_id)


def _paste_below(course: Course, student: str, grade_id: str, first: str | None, pasted: str | None) -> None:
    """JupyterLab's copy and paste: the copy (metadata and all, a new cell id) right below."""
    path = submit(course, CHAPTER, student, ANSWERS)
    notebook, cells = _cells(path)
    index = _index(cells, grade_id)
    if first is not None:
        cells[index].source = first
    copied = copy.deepcopy(cells[index])
    copied["id"] = f"{grade_id}-copy"
    if pasted is not None:
        copied.source = pasted
    cells.insert(index + 1, copied)
    nbformat.write(notebook, path)


def build_class(course: Course) -> None:
    submit(course, CHAPTER, "a-honest", ANSWERS)
    wrong = WRONG["views-classify"][0][1]
    _paste_below(course, "b-pasted-answer-fixed-below", "views-classify", wrong, ANSWERS["views-classify"])
    _paste_below(course, "c-pasted-answer-broken-below", "views-classify", None, wrong)
    _paste_below(course, "d-pasted-test-cell", "views-classify-tests", None, None)

    path = submit(course, CHAPTER, "e-forged-test-before", ANSWERS)
    notebook, cells = _cells(path)
    forged = copy.deepcopy(cells[_index(cells, "views-strides-tests")])
    forged.source, forged["id"] = "pass", "forged"
    cells.insert(_index(cells, "views-strides"), forged)
    nbformat.write(notebook, path)

    path = submit(course, CHAPTER, "f-changed-answer-metadata", ANSWERS)
    notebook, cells = _cells(path)
    cells[_index(cells, "views-strides")].metadata["nbgrader"].update(schema_version=1, solution=False)
    nbformat.write(notebook, path)

    path = submit(course, CHAPTER, "g-huge-output", ANSWERS)
    notebook, cells = _cells(path)
    cells[_index(cells, "views-setup")].outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                                          text="z" * 6 * MIB)]
    nbformat.write(notebook, path)

    raw = json.loads((course.submitted / "a-honest" / CHAPTER / f"{CHAPTER}.ipynb").read_text())
    deep = dict(raw, metadata={**raw["metadata"], "x": "nested"})
    text = json.dumps(deep).replace('"nested"', "[" * 40_000 + "]" * 40_000)
    target = course.submitted / "h-deep-json" / CHAPTER / f"{CHAPTER}.ipynb"
    target.parent.mkdir(parents=True)
    target.write_text(text)
    many = nbformat.reads(json.dumps(raw), as_version=4)
    many.cells += [nbformat.v4.new_markdown_cell("") for _ in range(25_000)]
    write_submission(course, CHAPTER, "i-many-cells", many)
    submit(course, CHAPTER, "z-honest", ANSWERS)


def full(grade_id: str) -> float:
    exercise = exercises(CHAPTER)[grade_id]
    return float(exercise.points(False) + exercise.points(True))


def earned(table: dict, student: str, grade_id: str) -> float:
    return sum(score for cell, score in table[student].items() if cell.startswith(f"{grade_id}-tests"))


def check(course: Course, flags: list[Flag], flags_file: str) -> None:
    table = scores(course, CHAPTER)
    everything = sum(full(g) for g in exercises(CHAPTER))
    for student in ("a-honest", "z-honest", "b-pasted-answer-fixed-below", "f-changed-answer-metadata",
                    "g-huge-output"):
        assert sum(table[student].values()) == everything, (student, table[student])
    for student, zeroed in (("d-pasted-test-cell", "views-classify"), ("e-forged-test-before", "views-strides")):
        for grade_id in exercises(CHAPTER):
            expected = 0.0 if grade_id == zeroed else full(grade_id)
            assert earned(table, student, grade_id) == expected, (student, grade_id)
    broken_below = "c-pasted-answer-broken-below"  # the wrong copy below the right answer is what counts
    assert earned(table, broken_below, "views-classify") < full("views-classify")
    assert all(earned(table, broken_below, g) == full(g) for g in exercises(CHAPTER) if g != "views-classify")
    assert "h-deep-json" not in table and "i-many-cells" not in table

    reasons: dict[str, list[str]] = {}
    for flag in flags:
        reasons.setdefault(flag.student, []).append(flag.reason)
    said = {s: " | ".join(r) for s, r in reasons.items()}
    assert "the answer cell views-classify appears 2 times (a copied cell)" in said["b-pasted-answer-fixed-below"]
    assert "last definition counts" in said["c-pasted-answer-broken-below"]
    assert "the test cell views-classify-tests appears 2 times: a copied cell, or a forged one" in \
        said["d-pasted-test-cell"]
    assert "the test cell views-strides-tests appears 2 times" in said["e-forged-test-before"]
    assert "views-strides had its nbgrader metadata changed (schema_version, solution)" in \
        said["f-changed-answer-metadata"]
    assert "stored outputs (6 MiB) were dropped" in said["g-huge-output"]
    assert said["h-deep-json"].startswith("not graded: the notebook's JSON nests 40002 levels deep")
    assert re.match(r"not graded: the notebook has 25\d\d\d cells, over the limit of 2000", said["i-many-cells"])
    assert "a-honest" not in said and "z-honest" not in said
    with (course.autograded / flags_file).open() as handle:
        written = " | ".join(row["reason"] for row in csv.DictReader(handle))
    assert "nbgrader update" not in written and "metadata format" not in written
    assert "appears 2 times: a copied cell, or a forged one" in written

    # The learner's file is kept as submitted; the graded copy is the reconciled one.
    kept = course.submitted / ".originals" / "d-pasted-test-cell" / CHAPTER / f"{CHAPTER}.ipynb"
    assert [nbgrader_meta(c).get("grade_id") for c in nbformat.read(kept, as_version=4).cells].count(
        "views-classify-tests") == 2


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> Course:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("reconciled-class") / "course", [CHAPTER])
    build_class(course)
    return course


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_the_sandboxed_grader_grades_what_can_be_graded(released, tmp_path) -> None:
    import shutil

    from autograder.pipeline.grading.sandboxed import grade_chapter

    course = Course(tmp_path / "sandboxed")
    shutil.copytree(released.root, course.root)
    outcome = grade_chapter(course, CHAPTER, progress=False)
    check(course, outcome.flags, f"{CHAPTER}-flags.csv")
    again = grade_chapter(course, CHAPTER, progress=False)
    assert not again.graded and len(again.skipped) == 8, "a reconciled submission counts as unchanged"


def test_plain_nbgrader_grades_the_reconciled_copies_too(released, tmp_path) -> None:
    import shutil

    course = Course(tmp_path / "plain")
    shutil.copytree(released.root, course.root)
    with forked_kernels():
        flags = autograde(course, CHAPTER)
    check(course, flags, f"{CHAPTER}-flags.csv")


def test_a_notebook_nbgrader_cannot_run_to_its_end_is_flagged_with_its_reason(tmp_path_factory) -> None:
    """nbgrader records zeros for a notebook whose kernel died and keeps no graded copy of it:
    that learner is flagged as not graded, with nbgrader's reason; the rest of the class is graded."""
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("kernel-died") / "course", [CHAPTER])
    submit(course, CHAPTER, "a-honest", ANSWERS)
    submit(course, CHAPTER, "b-ends-its-kernel", {**ANSWERS, "views-strides": "import os\n\nos._exit(1)"})
    with forked_kernels():
        flags = autograde(course, CHAPTER)
    assert [(f.student, f.reason) for f in flags] == [
        ("b-ends-its-kernel", f"{NBGRADER_COULD_NOT_RUN} (Kernel died while waiting for execute reply.)")]
    assert sum(scores(course, CHAPTER)["a-honest"].values()) == sum(full(g) for g in exercises(CHAPTER))


def test_nbgraders_advice_for_its_own_files_is_never_passed_on() -> None:
    from autograder.pipeline.gradebook.flags import NBGRADER_REFUSED, explain

    advice = ("not graded: nbgrader could not grade it (One or more notebooks in the assignment use an old "
              "version \nof the nbgrader metadata format. Please **back up your class files \ndirectory** and "
              "then update the metadata using:\n\nnbgrader update .\n)")
    assert explain(advice).startswith(NBGRADER_REFUSED) and "nbgrader update" not in explain(advice)
    assert explain("the test cell x appears 2 times") == "the test cell x appears 2 times"


def test_a_notebook_too_large_is_refused_by_its_size_before_it_is_read(released, tmp_path) -> None:
    import shutil

    from autograder.pipeline.grading.grade import admitted

    course = Course(tmp_path / "large")
    shutil.copytree(released.root, course.root)
    huge = course.submitted / "j-two-gib-file" / CHAPTER / f"{CHAPTER}.ipynb"
    huge.parent.mkdir(parents=True)
    with huge.open("wb") as handle:  # sparse: 2 GiB on paper, nothing on disk
        handle.truncate(2 * 1024 * MIB)
    flags: list[Flag] = []
    chosen = dict(admitted(course, CHAPTER, flags))
    assert "j-two-gib-file" not in chosen and "a-honest" in chosen
    reason = next(f.reason for f in flags if f.student == "j-two-gib-file")
    assert reason == "not graded: the notebook is 2.0 GiB, over the limit of 16 MiB (--max-notebook-bytes)"

"""Reconciliation of a submission with the student edition, cell by cell (no grading here: the
graded consequences are in tests/pipeline/grading/test_grade_what_can_be_graded.py)."""

from __future__ import annotations

import copy

import nbformat
import pytest
from nbgrader.nbgraderformat import MetadataValidator

from autograder.pipeline.course import nbgrader_meta, read_notebook
from autograder.pipeline.intake import reconcile as rec
from tests.conftest import released_copy

CHAPTER = "views"


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> nbformat.NotebookNode:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("reconcile") / "course", [CHAPTER])
    return read_notebook(course.release_notebook(CHAPTER))


def _index(notebook, grade_id: str) -> int:
    return next(i for i, c in enumerate(notebook.cells) if nbgrader_meta(c).get("grade_id") == grade_id)


def _pasted_copy(notebook, grade_id: str, source: str | None = None):
    """What JupyterLab's copy and paste makes: the cell below itself, metadata and all, a new id."""
    index = _index(notebook, grade_id)
    pasted = copy.deepcopy(notebook.cells[index])
    pasted["id"] = f"pasted-{grade_id}"
    if source is not None:
        pasted.source = source
    notebook.cells.insert(index + 1, pasted)
    return pasted


def _grade_ids(notebook) -> list[str]:
    return [nbgrader_meta(c).get("grade_id") for c in notebook.cells]


def test_an_untouched_submission_is_not_changed(edition) -> None:
    result = rec.reconcile(edition, edition)
    assert not result.changed and not result.findings and result.notebook == edition


def test_a_pasted_answer_cell_runs_as_a_learner_cell_below_the_original(edition) -> None:
    submission = copy.deepcopy(edition)
    _pasted_copy(submission, "views-classify", "def classify(t):\n    return 'later'\n")
    result = rec.reconcile(submission, edition)
    cells = result.notebook.cells
    at = _index(result.notebook, "views-classify")
    assert cells[at].get("id") == "views-classify"
    assert cells[at + 1].get("id") == "pasted-views-classify" and "nbgrader" not in cells[at + 1].metadata
    assert "return 'later'" in cells[at + 1].source, "the later definition is kept, to run after the first"
    assert [g for g, _ in result.findings] == ["views-classify"]
    reason = result.findings[0][1]
    assert "appears 2 times (a copied cell)" in reason and "last definition counts" in reason
    MetadataValidator().validate_nb(result.notebook)  # nbgrader accepts it: no duplicate grade id


@pytest.mark.parametrize("where", ["below", "before"])
def test_a_copied_or_forged_test_cell_is_removed_and_the_real_one_kept(edition, where) -> None:
    submission = copy.deepcopy(edition)
    pasted = _pasted_copy(submission, "views-classify-tests", "pass  # always passes")
    if where == "before":
        submission.cells.remove(pasted)
        submission.cells.insert(_index(submission, "views-classify"), pasted)
    result = rec.reconcile(submission, edition)
    assert _grade_ids(result.notebook).count("views-classify-tests") == 1
    kept = result.notebook.cells[_index(result.notebook, "views-classify-tests")]
    assert kept.source == edition.cells[_index(edition, "views-classify-tests")].source
    assert result.changed and not result.findings  # integrity reports and zeroes the exercise
    MetadataValidator().validate_nb(result.notebook)


def test_changed_answer_metadata_is_restored_and_the_answer_kept(edition) -> None:
    submission = copy.deepcopy(edition)
    cell = submission.cells[_index(submission, "views-strides")]
    cell.source = "def strides(t):\n    return t.stride()\n"
    cell.metadata["nbgrader"].update(schema_version=1, solution=False, locked=True)
    result = rec.reconcile(submission, edition)
    restored = result.notebook.cells[_index(result.notebook, "views-strides")]
    assert restored.metadata["nbgrader"] == edition.cells[_index(edition, "views-strides")].metadata["nbgrader"]
    assert restored.source == cell.source
    (grade_id, reason), = result.findings
    assert grade_id == "views-strides"
    assert "metadata changed (locked, schema_version, solution)" in reason
    MetadataValidator().validate_nb(result.notebook)


@pytest.mark.parametrize("how", ["cell id", "position"])
def test_an_answer_cell_that_lost_its_metadata_is_recognised(edition, how) -> None:
    submission = copy.deepcopy(edition)
    cell = submission.cells[_index(submission, "views-can-view")]
    del cell.metadata["nbgrader"]
    cell.source = "def can_view(t, shape):\n    return True\n"
    if how == "position":
        cell["id"] = "renamed"
    result = rec.reconcile(submission, edition)
    found = result.notebook.cells[_index(result.notebook, "views-can-view")]
    assert found.source == cell.source
    assert f"recognised by its {how}" in dict(result.findings)["views-can-view"]


def test_a_deleted_or_retyped_test_cell_is_put_back_from_the_edition(edition) -> None:
    submission = copy.deepcopy(edition)
    del submission.cells[_index(submission, "views-strides-tests-hidden")]
    index = _index(submission, "views-can-view-tests")
    submission.cells[index] = nbformat.v4.new_markdown_cell("ok", metadata=submission.cells[index].metadata)
    result = rec.reconcile(submission, edition)
    assert _grade_ids(result.notebook) == _grade_ids(edition)
    for grade_id in ("views-strides-tests-hidden", "views-can-view-tests"):
        assert result.notebook.cells[_index(result.notebook, grade_id)] == edition.cells[_index(edition, grade_id)]


def test_a_cell_claiming_a_grade_id_the_chapter_lacks_runs_as_a_learner_cell(edition) -> None:
    submission = copy.deepcopy(edition)
    forged = nbformat.v4.new_code_cell("x = 1", metadata={"nbgrader": {
        "grade": True, "grade_id": "views-bonus-tests", "locked": True, "points": 100, "schema_version": 3,
        "solution": False, "task": False}})
    submission.cells.insert(3, forged)
    result = rec.reconcile(submission, edition)
    assert "nbgrader" not in result.notebook.cells[3].metadata and result.notebook.cells[3].source == "x = 1"
    assert "views-bonus-tests, which this chapter does not have" in dict(result.findings)["views-bonus-tests"]


def test_store_keeps_the_learners_file_and_reads_it_back_on_every_run(tmp_path, edition) -> None:
    submitted = tmp_path / "submitted" / "ada" / CHAPTER / f"{CHAPTER}.ipynb"
    submitted.parent.mkdir(parents=True)
    submission = copy.deepcopy(edition)
    _pasted_copy(submission, "views-classify-tests")
    nbformat.write(submission, submitted)
    learners = submitted.read_bytes()

    rec.store(submitted, rec.reconcile(read_notebook(submitted), edition))
    assert submitted.read_bytes() != learners
    kept = rec.original_of(submitted)
    assert kept == tmp_path / "submitted" / ".originals" / "ada" / CHAPTER / f"{CHAPTER}.ipynb"
    assert kept.read_bytes() == learners
    rewritten = submitted.read_bytes()
    rec.store(submitted, rec.reconcile(read_notebook(rec.original_of(submitted)), edition))
    assert submitted.read_bytes() == rewritten, "reconciling again writes the same bytes"

    nbformat.write(edition, submitted)  # a new submission replaces the rewrite
    assert rec.original_of(submitted) == submitted
    fresh = submitted.read_bytes()
    rec.store(submitted, rec.reconcile(read_notebook(submitted), edition))
    assert submitted.read_bytes() == fresh, "a gradable submission is left as it is"

"""Recording on one gradebook session (:mod:`autograder.pipeline.gradebook.recorder`) leaves the gradebook and
the autograded folder exactly as nbgrader's own ``Autograde`` converter leaves them, and the
compiled metadata check refuses exactly what nbgrader's refuses."""

from __future__ import annotations

import copy
import datetime
import shutil

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.converters import Autograde
from nbgrader.preprocessors import CheckCellMetadata

from autograder.engine.cases import exercises
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.pipeline.gradebook.preprocessors import CheckCellMetadataOnce
from autograder.pipeline.gradebook.recorder import AutogradeOnRun, RunGradebook
from autograder.pipeline.grading import verdict
from autograder.pipeline.grading.grade import admitted
from autograder.pipeline.grading.sandboxed import GradingRun, Outcome, _config
from autograder.pipeline.intake import integrity
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.pool import Pool
from autograder.pipeline.site.release import release
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course, released_copy
from tests.submissions import edit_cell, submit

CHAPTER = "views"
SEED = 5
root_only = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")


# ------------------------------------------------------------------------ the metadata check
def _first(notebook: nbformat.NotebookNode, cell_type: str = "code", **wanted) -> nbformat.NotebookNode:
    return next(c for c in notebook.cells
                if c.cell_type == cell_type and all(nbgrader_meta(c).get(k) == v for k, v in wanted.items()))


def _without_points(nb):
    del _first(nb, grade=True, solution=False).metadata.nbgrader["points"]


def _empty_grade_id(nb):
    _first(nb, locked=True).metadata.nbgrader["grade_id"] = ""


def _missing_grade_id(nb):
    del _first(nb, locked=True).metadata.nbgrader["grade_id"]


def _old_schema(nb):
    _first(nb, locked=True).metadata.nbgrader["schema_version"] = 2


def _new_schema(nb):
    _first(nb, locked=True).metadata.nbgrader["schema_version"] = 4


def _points_as_text(nb):
    _first(nb, grade=True, solution=False).metadata.nbgrader["points"] = "3"


def _short_checksum(nb):
    _first(nb, locked=True).metadata.nbgrader["checksum"] = "abc"


def _grade_as_text(nb):
    _first(nb, solution=True).metadata.nbgrader["grade"] = "no"


def _duplicate_grade_id(nb):
    answer = _first(nb, solution=True)
    _first(nb, grade=True, solution=False).metadata.nbgrader["grade_id"] = answer.metadata.nbgrader["grade_id"]


def _markdown_grade_cell(nb):
    cell = _first(nb, grade=True, solution=False)
    cell.cell_type = "markdown"
    del cell["outputs"], cell["execution_count"]


def _code_task_cell(nb):
    _first(nb, locked=True).metadata.nbgrader["task"] = True


def _unchanged(nb):
    pass


METADATA_CASES = [_unchanged, _without_points, _empty_grade_id, _missing_grade_id, _old_schema, _new_schema,
                  _points_as_text, _short_checksum, _grade_as_text, _duplicate_grade_id, _markdown_grade_cell,
                  _code_task_cell]


@pytest.fixture(scope="module")
def edition_notebook(tmp_path_factory) -> nbformat.NotebookNode:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("metadata") / "course", [CHAPTER])
    return read_notebook(course.release_notebook(CHAPTER))


def _outcome(check, notebook) -> str:
    try:
        check.preprocess(copy.deepcopy(notebook), {})
    except Exception as err:  # noqa: BLE001 - which error is what is compared
        return type(err).__name__
    return "accepted"


@pytest.mark.parametrize("change", METADATA_CASES, ids=lambda c: c.__name__.strip("_"))
def test_the_compiled_metadata_check_decides_as_nbgraders(edition_notebook, change) -> None:
    notebook = copy.deepcopy(edition_notebook)
    change(notebook)
    ours, theirs = _outcome(CheckCellMetadataOnce(), notebook), _outcome(CheckCellMetadata(), notebook)
    assert ours == theirs
    assert (ours == "accepted") == (change is _unchanged), f"{change.__name__}: {ours}"


# ------------------------------------------------------------------------ recording a class
def _class(course: Course) -> None:
    """Right, wrong and mixed answers; an edited test cell; a changed answer-cell metadata; a late
    submission; an unreadable notebook."""
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    wrong = {g: WRONG[g][0][1] for g in exercises(CHAPTER) if WRONG.get(g)}
    submit(course, CHAPTER, "a-right", right)
    submit(course, CHAPTER, "b-wrong", {**right, **wrong})
    submit(course, CHAPTER, "c-mixed", {**right, **dict(list(wrong.items())[::2])})
    tampered = submit(course, CHAPTER, "d-tampered", right)
    edit_cell(tampered, "views-strides-tests", "assert True")
    moved = submit(course, CHAPTER, "e-metadata", right)
    notebook = nbformat.read(moved, as_version=4)
    _first(notebook, solution=True).metadata.nbgrader["points"] = 99
    nbformat.write(notebook, moved)
    late = submit(course, CHAPTER, "f-late", right)
    (late.parent / "timestamp.txt").write_text("2031-01-02 10:00:00.000000 UTC")
    (course.submitted / "g-broken" / CHAPTER).mkdir(parents=True)
    (course.submitted / "g-broken" / CHAPTER / f"{CHAPTER}.ipynb").write_text('{"cells": [')


def _record(course: Course, results: dict, one_session: bool) -> Outcome:
    db = course.gradebook_url
    edition = read_notebook(course.release_notebook(CHAPTER))
    outcome = Outcome()
    chosen = admitted(course, CHAPTER, outcome.flags)
    with RunGradebook(db) as gradebook:
        run = GradingRun(CHAPTER, _config(course, db, one_session), edition, verdict.Key.of(CHAPTER, SEED),
                         integrity.test_cell_checksums(course.release_notebook(CHAPTER)), outcome, gradebook,
                         AutogradeOnRun if one_session else Autograde)
        for student, path in chosen:
            run.record(student, path, results[student])
    return outcome


def _gradebook(course: Course) -> dict:
    """Every row a grading run writes, by student."""
    rows = {}
    with Gradebook(course.gradebook_url) as gradebook:
        for student in gradebook.students:
            submission = gradebook.find_submission(CHAPTER, student.id)
            notebook = gradebook.find_submission_notebook(CHAPTER, CHAPTER, student.id)
            rows[student.id] = {
                "timestamp": submission.timestamp, "late": notebook.late_submission_penalty,
                "score": notebook.score, "needs manual grade": notebook.needs_manual_grade,
                "grades": sorted((g.name, g.auto_score, g.manual_score, g.extra_credit, g.needs_manual_grade)
                                 for g in notebook.grades),
                "comments": sorted((c.name, c.auto_comment, c.manual_comment) for c in notebook.comments),
            }
    return rows


def _autograded(course: Course) -> dict:
    """Every file of the autograded folder; notebooks as data."""
    found = {}
    for path in sorted(course.autograded.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            name = str(path.relative_to(course.autograded))
            found[name] = nbformat.read(path, as_version=4) if path.suffix == ".ipynb" else path.read_bytes()
    return found


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> dict:
    """One class, judged once in the sandbox, recorded on one session and by nbgrader's converter."""
    base = tmp_path_factory.mktemp("recorder")
    ours = copy_course(base / "one-session")
    with (ours.root / "nbgrader_config.py").open("a") as config:
        config.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    release(ours, [CHAPTER])
    with Gradebook(ours.gradebook_url) as gradebook:
        gradebook.update_or_create_assignment(CHAPTER, duedate=datetime.datetime(2031, 1, 1))
    _class(ours)
    theirs = Course(base / "nbgrader")
    shutil.copytree(ours.root, theirs.root)
    edition = read_notebook(ours.release_notebook(CHAPTER))
    key = verdict.Key.of(CHAPTER, SEED)
    with Pool(2, Limits()) as pool:
        futures = {s: pool.submit(verdict.plan(read_notebook(p), edition, key)) for s, p in admitted(ours, CHAPTER, [])}
        results = {s: f.result() for s, f in futures.items()}
    outcomes = {"ours": _record(ours, results, True), "theirs": _record(theirs, results, False)}
    recorded = {"ours": (_gradebook(ours), _autograded(ours)), "theirs": (_gradebook(theirs), _autograded(theirs))}
    for course in (ours, theirs):  # a grader's manual score, then the class regraded
        with Gradebook(course.gradebook_url) as gradebook:
            gradebook.find_grade("views-strides-tests", CHAPTER, CHAPTER, "a-right").manual_score = 1.0
            gradebook.db.commit()
    _record(ours, results, True)
    _record(theirs, results, False)
    regraded = {"ours": _gradebook(ours), "theirs": _gradebook(theirs)}
    return {"outcomes": outcomes, "recorded": recorded, "regraded": regraded}


@root_only
def test_the_class_is_recorded_row_for_row_as_nbgrader_records_it(both) -> None:
    ours, theirs = both["recorded"]["ours"][0], both["recorded"]["theirs"][0]
    assert set(ours) == {"a-right", "b-wrong", "c-mixed", "d-tampered", "e-metadata", "f-late"}
    assert ours == theirs
    assert ours["f-late"]["late"] == ours["f-late"]["score"] > 0, "a late submission scores zero (the course's rule)"
    assert ours["a-right"]["late"] is None
    assert ours["f-late"]["timestamp"] == datetime.datetime(2031, 1, 2, 10)
    assert ours["a-right"]["score"] > ours["c-mixed"]["score"] > ours["b-wrong"]["score"]
    tampered = dict((g[0], g[2]) for g in ours["d-tampered"]["grades"])
    assert tampered["views-strides-tests"] == 0.0, "the tampered exercise is zeroed for review"


@root_only
def test_the_autograded_notebooks_are_the_converters(both) -> None:
    ours, theirs = both["recorded"]["ours"][1], both["recorded"]["theirs"][1]
    assert any(name.startswith("a-right/") and name.endswith(".ipynb") for name in ours)
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert ours[name] == theirs[name], name


@root_only
def test_the_flags_are_the_same(both) -> None:
    ours, theirs = both["outcomes"]["ours"], both["outcomes"]["theirs"]
    assert ours.flags == theirs.flags
    assert ours.graded == theirs.graded
    assert {f.student for f in ours.flags} >= {"d-tampered", "e-metadata", "g-broken"}


@root_only
def test_a_regrade_after_a_manual_score_asks_for_review_as_nbgrader_does(both) -> None:
    ours, theirs = both["regraded"]["ours"], both["regraded"]["theirs"]
    assert ours == theirs
    strides = next(g for g in ours["a-right"]["grades"] if g[0] == "views-strides-tests")
    assert strides[2] == 1.0 and strides[4] is True, "the manual score is kept and flagged for review"

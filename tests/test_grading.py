"""Real nbgrader autograde over a class of Chapter 1 submissions.

Right answers (the reference and other spellings) must earn every point; each catalogued wrong
answer must lose its exercise's points and its test cell output must name its misconception;
tampered or broken submissions are flagged while the rest of the class is graded.
"""

from __future__ import annotations

import csv
import json

import nbformat
import pytest

from autograder.checks import exercises
from autograder.pipeline.course import nbgrader_meta
from autograder.pipeline.grade import autograde, scores
from tests.catalog.views import RIGHT, WRONG
from tests.submissions import edit_cell, submit

pytestmark = pytest.mark.nbgrader
CHAPTER = "views"
EXERCISES = list(exercises(CHAPTER))
WRONG_STUDENTS = max(len(v) for v in WRONG.values())
RIGHT_STUDENTS = max(len(v) for v in RIGHT.values())


def reference(grade_id: str) -> str:
    return RIGHT[grade_id][0][1]


@pytest.fixture(scope="module")
def graded(released_course):
    course = released_course
    for i in range(RIGHT_STUDENTS):
        submit(course, CHAPTER, f"right-{i}", {g: RIGHT[g][i % len(RIGHT[g])][1] for g in EXERCISES})
    for i in range(WRONG_STUDENTS):
        answers = {g: WRONG[g][i][1] if i < len(WRONG[g]) else reference(g) for g in EXERCISES}
        submit(course, CHAPTER, f"wrong-{i}", answers)
    all_right = {g: reference(g) for g in EXERCISES}
    edited = submit(course, CHAPTER, "tamper-edit", {**all_right, "views-can-view": WRONG["views-can-view"][0][1]})
    edit_cell(edited, "views-can-view-tests", '"""can_view: always passes."""\npass')
    deleted = submit(course, CHAPTER, "tamper-delete", all_right)
    edit_cell(deleted, "views-strides-tests", None)
    broken = course.submitted / "broken-json" / CHAPTER / f"{CHAPTER}.ipynb"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"cells": [')
    flags = autograde(course, CHAPTER)
    return course, scores(course, CHAPTER), flags


def exercise_score(student_scores: dict[str, float], grade_id: str) -> tuple[float, float]:
    ex = exercises(CHAPTER)[grade_id]
    got = student_scores[f"{grade_id}-tests"] + student_scores[f"{grade_id}-tests-hidden"]
    return got, ex.points(False) + ex.points(True)


def assert_full_points_except(student_scores: dict[str, float], zeroed: str) -> None:
    """Every exercise but the zeroed one keeps all its points."""
    for grade_id in EXERCISES:
        if grade_id != zeroed:
            got, full = exercise_score(student_scores, grade_id)
            assert got == full, grade_id


def cell_outputs(course, student: str, grade_id: str) -> str:
    notebook = nbformat.read(course.autograded / student / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
    texts = []
    for cell in notebook.cells:
        if nbgrader_meta(cell).get("grade_id", "").startswith(f"{grade_id}-tests"):
            texts += [o.get("evalue", "") + "".join(o.get("traceback", [])) for o in cell.get("outputs", [])]
    return "\n".join(texts)


@pytest.mark.parametrize("student", [f"right-{i}" for i in range(RIGHT_STUDENTS)])
def test_right_spellings_earn_every_point(graded, student):
    _, table, _ = graded
    for grade_id in EXERCISES:
        got, full = exercise_score(table[student], grade_id)
        assert got == full, f"{student} {grade_id}: {got}/{full}"


@pytest.mark.parametrize(
    ("index", "grade_id", "label", "message"),
    [(i, g, label, msg) for g, answers in WRONG.items() for i, (label, _src, msg) in enumerate(answers)],
)
def test_wrong_answers_lose_points_with_their_misconception(graded, index, grade_id, label, message):
    course, table, _ = graded
    student = f"wrong-{index}"
    got, full = exercise_score(table[student], grade_id)
    assert got < full, f"{label} earned {got}/{full}"
    assert message in cell_outputs(course, student, grade_id), f"{label}: message not shown"


def test_wrong_students_keep_points_on_the_exercises_they_got_right(graded):
    _, table, _ = graded
    for i in range(WRONG_STUDENTS):
        for grade_id in EXERCISES:
            if i >= len(WRONG[grade_id]):
                got, full = exercise_score(table[f"wrong-{i}"], grade_id)
                assert got == full, (i, grade_id)


def test_an_edited_test_cell_scores_zero_and_is_flagged(graded):
    _, table, flags = graded
    got, _ = exercise_score(table["tamper-edit"], "views-can-view")
    assert got == 0
    assert any(f.student == "tamper-edit" and f.grade_id == "views-can-view-tests" for f in flags)
    assert_full_points_except(table["tamper-edit"], "views-can-view")


def test_a_deleted_test_cell_zeroes_its_exercise_only(graded):
    _, table, flags = graded
    assert exercise_score(table["tamper-delete"], "views-strides")[0] == 0
    assert any(f.student == "tamper-delete" and "deleted" in f.reason for f in flags)
    assert_full_points_except(table["tamper-delete"], "views-strides")


def test_a_corrupt_submission_is_reported_and_the_class_is_still_graded(graded):
    course, table, flags = graded
    assert all(score == 0 for score in table.get("broken-json", {}).values())
    assert any(f.student == "broken-json" and "not a readable notebook" in f.reason for f in flags)
    assert {f"right-{i}" for i in range(RIGHT_STUDENTS)} <= set(table)
    with (course.autograded / f"{CHAPTER}-flags.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {row["student"] for row in rows} == {"tamper-edit", "tamper-delete", "broken-json"}


def test_feedback_names_misconceptions_and_never_shows_hidden_tests(graded):
    course, _, _ = graded
    course.nbgrader("generate_feedback", CHAPTER, "--force")
    page = (course.root / "feedback" / "wrong-0" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert "BEGIN HIDDEN TESTS" not in page and "hidden=True" not in page
    assert "BEGIN SOLUTION" not in page
    assert "a hidden check of" in page  # hidden failures still name their misconception
    assert "transposing does not move data" in page


def test_export_writes_every_graded_student(graded):
    course, table, _ = graded
    course.nbgrader("export")
    with (course.root / "grades.csv").open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert set(table) <= set(rows)
    total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
    assert float(rows["right-0"]["score"]) == total
    assert float(rows["tamper-delete"]["score"]) < total
    assert json.loads(json.dumps(rows["wrong-0"]))["assignment"] == CHAPTER

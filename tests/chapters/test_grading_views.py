"""Chapter 1 through real nbgrader, plus the pipeline's own guarantees: tampered test cells are
zeroed and flagged, a corrupt submission is reported while the class is still graded, feedback
names misconceptions without showing hidden tests, and the export lists everyone."""

from __future__ import annotations

import csv

import pytest

from autograder.pipeline.course import Course
from tests.catalog.views import WRONG
from tests.grading import ChapterGrading, Graded, exercises, right_students
from tests.submissions import edit_cell, submit

pytestmark = pytest.mark.nbgrader
CHAPTER = "views"


class TestViewsGrading(ChapterGrading):
    CHAPTER = CHAPTER

    @classmethod
    def submit_more(cls, course: Course) -> None:
        all_right = {g: cls.reference(g) for g in exercises(CHAPTER)}
        edited = submit(course, CHAPTER, "tamper-edit", {**all_right, "views-can-view": WRONG["views-can-view"][0][1]})
        edit_cell(edited, "views-can-view-tests", '"""can_view: always passes."""\npass')
        deleted = submit(course, CHAPTER, "tamper-delete", all_right)
        edit_cell(deleted, "views-strides-tests", None)
        broken = course.submitted / "broken-json" / CHAPTER / f"{CHAPTER}.ipynb"
        broken.parent.mkdir(parents=True)
        broken.write_text('{"cells": [')

    def test_an_edited_test_cell_scores_zero_and_is_flagged(self, graded: Graded) -> None:
        assert graded.exercise_score("tamper-edit", "views-can-view")[0] == 0
        assert any(f.student == "tamper-edit" and f.grade_id == "views-can-view-tests" for f in graded.flags)
        graded.assert_full_points_except("tamper-edit", "views-can-view")

    def test_a_deleted_test_cell_zeroes_its_exercise_only(self, graded: Graded) -> None:
        assert graded.exercise_score("tamper-delete", "views-strides")[0] == 0
        assert any(f.student == "tamper-delete" and "deleted" in f.reason for f in graded.flags)
        graded.assert_full_points_except("tamper-delete", "views-strides")

    def test_a_corrupt_submission_is_reported_and_the_class_is_still_graded(self, graded: Graded) -> None:
        assert all(score == 0 for score in graded.table.get("broken-json", {}).values())
        assert any(f.student == "broken-json" and "not a readable notebook" in f.reason for f in graded.flags)
        assert set(right_students(CHAPTER)) <= set(graded.table)
        with (graded.course.autograded / f"{CHAPTER}-flags.csv").open() as handle:
            rows = list(csv.DictReader(handle))
        # The release submitted unchanged is flagged as untouched, for a human look, not refused; the
        # forger's and the filter's runs are stopped (tests/attacks.py).
        assert {row["student"] for row in rows} == {"tamper-edit", "tamper-delete", "broken-json", "untouched",
                                                    "attack-forger", "attack-filter"}

    def test_feedback_names_misconceptions_and_never_shows_hidden_tests(self, graded: Graded) -> None:
        course = graded.course
        course.nbgrader("generate_feedback", CHAPTER, "--force", "--student", "wrong-0")
        page = (course.root / "feedback" / "wrong-0" / CHAPTER / f"{CHAPTER}.html").read_text()
        assert "BEGIN HIDDEN TESTS" not in page and "hidden=True" not in page
        assert "BEGIN SOLUTION" not in page
        assert "behaves as if the transpose wrote the data out anew" in page  # the catalogue's wrong-0

    def test_an_answer_that_writes_the_hidden_tests_delimiter_still_gets_its_page(self, graded: Graded) -> None:
        """The reader's answer cells hold nbgrader's ``### BEGIN HIDDEN TESTS`` (in a pattern) with no end:
        its page shows them as written, and the test cells' hidden checks stay hidden."""
        course = graded.course
        course.nbgrader("generate_feedback", CHAPTER, "--force", "--student", "attack-reader")
        page = (course.root / "feedback" / "attack-reader" / CHAPTER / f"{CHAPTER}.html").read_text()
        assert "BEGIN HIDDEN TESTS" in page and "hidden=True" not in page

    def test_export_writes_every_graded_student(self, graded: Graded) -> None:
        course = graded.course
        course.nbgrader("export")
        with (course.root / "grades.csv").open() as handle:
            rows = {row["student_id"]: row for row in csv.DictReader(handle) if row["assignment"] == CHAPTER}
        assert set(graded.table) <= set(rows)
        total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
        assert float(rows["right-0"]["score"]) == total
        assert float(rows["tamper-delete"]["score"]) < total

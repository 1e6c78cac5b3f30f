"""Chapter 7 through real nbgrader: right spellings earn every point, catalogued wrong answers lose
them with their misconception, and the regression-test cell runs the learner's tests with pytest."""

from __future__ import annotations

import nbformat
import pytest

from autograder.checks import exercises
from autograder.pipeline.course import Course, nbgrader_meta
from tests.catalog.capstone import KEEP_TESTS
from tests.grading import ChapterGrading, Graded
from tests.submissions import submit

pytestmark = pytest.mark.nbgrader
CHAPTER = "capstone"


def regression_cell_text(graded: Graded, student: str) -> str:
    path = graded.course.autograded / student / CHAPTER / f"{CHAPTER}.ipynb"
    cells = {nbgrader_meta(c).get("grade_id"): c for c in nbformat.read(path, as_version=4).cells}
    return "".join(output.get("text", "") for output in cells["capstone-keep-run"].outputs)


class TestCapstoneGrading(ChapterGrading):
    CHAPTER = CHAPTER

    @classmethod
    def submit_more(cls, course: Course) -> None:
        answers = {g: cls.reference(g) for g in exercises(CHAPTER)}
        submit(course, CHAPTER, "keeps-tests", {**answers, "capstone-keep-test": KEEP_TESTS})

    def test_the_regression_cell_runs_the_learners_tests_with_pytest(self, graded: Graded) -> None:
        assert regression_cell_text(graded, "keeps-tests") == (
            "test_broken_still_raises: passed\ntest_fixed_matches_softmax: passed\n"
        )
        graded.assert_full_points_except("keeps-tests")

    def test_without_tests_the_regression_cell_asks_for_them(self, graded: Graded) -> None:
        assert regression_cell_text(graded, "right-0").startswith("Define broken(), fixed() and at least one test_")

"""The closed-book companion of Chapter 7 through real nbgrader and the sandboxed grader."""

from __future__ import annotations

import pytest

from autograder.pipeline.course import Course
from tests.grading import ChapterGrading, _setup_source, locked_cell_source

pytestmark = pytest.mark.nbgrader


class TestCapstoneClosedBookGrading(ChapterGrading):
    CHAPTER = "capstone-closed-book"

    @classmethod
    def answer_context(cls, course: Course) -> str:
        return _setup_source(course, cls.CHAPTER) + "\n" + locked_cell_source(
            course, cls.CHAPTER, f"{cls.CHAPTER}-fragment")

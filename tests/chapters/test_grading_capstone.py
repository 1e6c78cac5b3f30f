"""Chapter 7 through real nbgrader and the sandboxed grader: right spellings earn every point,
catalogued wrong answers (reductions, repairs, regression tests) lose them with their misconception."""

from __future__ import annotations

import pytest

from autograder.pipeline.course import Course
from tests.catalog.capstone import FRAGMENTS
from tests.grading import ChapterGrading, _setup_source, locked_cell_source

pytestmark = pytest.mark.nbgrader


class TestCapstoneGrading(ChapterGrading):
    CHAPTER = "capstone"

    @classmethod
    def answer_context(cls, course: Course) -> str:
        # Answers may read the fragments (a regression test compares with one; a wrong reduction calls
        # one; a repair of the second calls its helper).
        return "\n".join([_setup_source(course, cls.CHAPTER),
                          *(locked_cell_source(course, cls.CHAPTER, name) for name in FRAGMENTS)])

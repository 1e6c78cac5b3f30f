"""The closed-book companion of Chapter 4 through real nbgrader and the sandboxed grader: right
spellings earn every point, catalogued wrong answers lose them with their misconception."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestLeavesClosedBookGrading(ChapterGrading):
    CHAPTER = "leaves-closed-book"

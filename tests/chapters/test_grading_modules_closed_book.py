"""The closed-book companion of Chapter 5 through real nbgrader and the sandboxed grader: right
spellings earn every point, catalogued wrong answers lose them with their misconception."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestModulesClosedBookGrading(ChapterGrading):
    CHAPTER = "modules-closed-book"

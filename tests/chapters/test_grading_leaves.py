"""Chapter 4 through real nbgrader and the sandboxed grader: right spellings earn every point,
catalogued wrong answers lose them with their misconception, and no exploit earns more than the
untouched answer."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestLeavesGrading(ChapterGrading):
    CHAPTER = "leaves"

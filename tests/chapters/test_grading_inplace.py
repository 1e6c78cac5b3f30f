"""Chapter 2 through real nbgrader: right spellings earn every point, catalogued wrong answers lose
them with their misconception's message."""

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestInplaceGrading(ChapterGrading):
    CHAPTER = "inplace"

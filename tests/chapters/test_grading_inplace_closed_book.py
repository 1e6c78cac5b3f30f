"""The closed-book companion of Chapter 2 through real nbgrader and the sandboxed grader."""

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestInplaceClosedBookGrading(ChapterGrading):
    CHAPTER = "inplace-closed-book"

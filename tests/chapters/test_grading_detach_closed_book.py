"""The closed-book companion of Chapter 3 through real nbgrader and the sandboxed grader."""

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestDetachClosedBookGrading(ChapterGrading):
    CHAPTER = "detach-closed-book"

"""The closed-book companion of Chapter 1 through real nbgrader and the sandboxed grader."""

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestViewsClosedBookGrading(ChapterGrading):
    CHAPTER = "views-closed-book"

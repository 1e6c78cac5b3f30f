"""Chapter 3 through real nbgrader: every catalogued right spelling earns every point, every
catalogued wrong answer loses its exercise's points and is told its misconception."""

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestDetachGrading(ChapterGrading):
    CHAPTER = "detach"

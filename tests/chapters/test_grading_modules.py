"""Chapter 5 through real nbgrader: every right spelling of each module class earns every point,
each catalogued wrong one loses its exercise's points and is told its misconception."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading

pytestmark = pytest.mark.nbgrader


class TestModulesGrading(ChapterGrading):
    CHAPTER = "modules"

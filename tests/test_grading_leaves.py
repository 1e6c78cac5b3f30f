"""Chapter 4 through real nbgrader: right spellings earn every point, catalogued wrong answers lose
them with their misconception, and feedback never shows the hidden drivers' inputs."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading, Graded

pytestmark = pytest.mark.nbgrader


class TestLeavesGrading(ChapterGrading):
    CHAPTER = "leaves"

    def test_hidden_failures_name_the_misconception_without_the_probe(self, graded: Graded) -> None:
        # wrong-4 differs from the reference only in sgd_step, which fails on the hidden unused parameter.
        outputs = graded.cell_outputs("wrong-4", "leaves-sgd-step")
        assert "a hidden check of sgd_step failed" in outputs
        assert "unused-parameter" not in outputs and "mlp-6-steps" not in outputs

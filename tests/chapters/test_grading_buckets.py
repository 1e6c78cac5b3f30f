"""Chapter 6 through the sandboxed grader and real nbgrader: the distributed exercises are graded on
real ranks; right spellings earn every point, catalogued wrong answers lose them with their
misconception, and, in nbgrader's own kernel, a failing rank's traceback reaches the graded notebook."""

from __future__ import annotations

import pytest

from tests.grading import ChapterGrading, Graded

pytestmark = pytest.mark.nbgrader


class TestBucketsGrading(ChapterGrading):
    CHAPTER = "buckets"
    NBGRADER_WRONG = {"buckets-ranks-agree": "crashes-on-the-ranks"}

    def test_a_rank_that_raises_shows_its_traceback_in_the_graded_cell(self, nbgrader_graded: Graded) -> None:
        outputs = nbgrader_graded.cell_outputs("wrong-nbgrader", "buckets-ranks-agree")
        assert "rank 0 raised RuntimeError: ProcessGroupGloo::allgather: invalid tensor size" in outputs
        assert "Traceback of rank 0" in outputs and "dist.all_gather(gathered, flat)" in outputs

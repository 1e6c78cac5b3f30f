"""Chapter 6 through real nbgrader: the distributed exercises are graded on real ranks inside the
autograding kernel; right spellings earn every point, catalogued wrong answers lose them with their
misconception, and a failing rank's traceback reaches the graded notebook."""

from __future__ import annotations

import pytest

from tests.catalog.buckets import WRONG
from tests.grading import ChapterGrading, Graded

pytestmark = pytest.mark.nbgrader


class TestBucketsGrading(ChapterGrading):
    CHAPTER = "buckets"

    def test_a_rank_that_raises_shows_its_traceback_in_the_graded_cell(self, graded: Graded) -> None:
        index = [label for label, _source, _message in WRONG["buckets-ranks-agree"]].index("crashes-on-the-ranks")
        outputs = graded.cell_outputs(f"wrong-{index}", "buckets-ranks-agree")
        assert "rank 0 raised RuntimeError: ProcessGroupGloo::allgather: invalid tensor size" in outputs
        assert "Traceback of rank 0" in outputs and "dist.all_gather(gathered, flat)" in outputs

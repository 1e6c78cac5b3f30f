"""Every right answer earns every point on every seed and thread count (:mod:`tests.determinism`),
in every chapter whose checks run in one process."""

from __future__ import annotations

import pytest

from tests.determinism import ASSIGNMENTS, ON_RANKS, THREADS, points_lost


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("assignment", [a for a in ASSIGNMENTS if a not in ON_RANKS])
def test_every_right_answer_earns_every_point_on_every_seed(assignment: str, threads: int) -> None:
    lost = points_lost(assignment, threads)
    assert not lost, "\n".join(lost[:5])


"""Every wrong answer of a catalogue loses the same checks on every seed (:mod:`tests.determinism`), in
every chapter whose checks run in one process. A file of its own: the test runner hands a whole file
to one worker, and the right answers' file is long already."""

from __future__ import annotations

import pytest

from tests.determinism import ASSIGNMENTS, ON_RANKS, unstable_losses


@pytest.mark.parametrize("assignment", [a for a in ASSIGNMENTS if a not in ON_RANKS])
def test_every_wrong_answer_loses_the_same_checks_on_every_seed(assignment: str) -> None:
    unstable = unstable_losses(assignment)
    assert not unstable, "\n".join(unstable)

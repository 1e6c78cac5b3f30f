"""Draws no other process can know: a rank's own, made after the fork.

Some checks need a truth that no process of the answer's can learn except by doing what the task
asks: which rank changed its module, and how, is known to that rank alone, and the others can learn
it only by comparing states. Such a draw is :func:`draw`. When graded, it comes from the job's
supervisor (:func:`autograder.engine.channel.secret`), which hands it to the asking process
alone and keeps it: the grader judges against what the supervisor kept, and a draw made any other
way counts for nothing. Elsewhere (a learner's kernel) it comes from ``os.urandom``, and the process
that asked reports it (:func:`taken`), since there nothing is graded.

Defined for Chapter 6, "Gradient buckets and flat shards" (its ``ranks_agree`` checks).
"""

from __future__ import annotations

import os

__all__ = ["draw", "keep", "supervised_by", "taken"]

_SUPERVISOR: list[int] = []  # the job's control socket, when the process runs in a graded job
_TAKEN: dict[str, str] = {}


def supervised_by(control: int) -> None:
    """Draw from the job's supervisor over ``control`` (the runner says so when a job starts)."""
    _SUPERVISOR[:] = [control]


def draw(tag: str) -> bytes:
    """Sixteen random bytes for ``tag``, drawn where no other process sees them."""
    if _SUPERVISOR:
        from autograder.engine import channel

        return bytes.fromhex(channel.secret(_SUPERVISOR[0], tag))
    value = os.urandom(16)
    _TAKEN[tag] = value.hex()
    return value


def keep(drawn: dict[str, str]) -> None:
    """Keep draws another process made without a supervisor and reported (a rank's, forked from here)."""
    _TAKEN.update(drawn)


def taken() -> dict[str, str]:
    """The draws made (or kept) in this process without a supervisor; cleared for the next check."""
    found = dict(_TAKEN)
    _TAKEN.clear()
    return found

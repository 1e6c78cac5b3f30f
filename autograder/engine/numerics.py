"""The numerics every observation runs with, wherever it runs: one thread.

A check that compares floating-point results with a tolerance compares what the answer gave in
the grading sandbox (one thread per worker) with what the reference gave where the key was
computed. Sums and matrix products come out differently with another number of threads, so the
key, a learner's own check and the sandbox all compute on one thread: the same answer then gets
the same verdict on every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

THREADS = 1


@contextmanager
def as_observed() -> Iterator[None]:
    """Compute on the sandbox's number of threads here, and put the caller's back afterwards."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        yield
    finally:
        torch.set_num_threads(threads)

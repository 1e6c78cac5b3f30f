"""Autograd State's autograder: the checks that chapter test cells call.

Test cells import only :func:`grade` (and, through it, one chapter module of cases). The
instructor pipeline lives in :mod:`autograder.pipeline` and is never imported from here, so a
learner's kernel does not load it. ``grade`` is imported when it is first asked for, so that the
instructor's command line (``autograd-state --help``) does not import torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograder.checks import grade

__all__ = ["grade"]


def __getattr__(name: str):
    if name == "grade":
        from autograder.checks import grade

        globals()["grade"] = grade
        return grade
    raise AttributeError(f"module 'autograder' has no attribute {name!r}")

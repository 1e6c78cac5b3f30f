"""Autograd State's autograder: the checks that chapter test cells call.

Test cells import only :func:`grade`. This package is the observing half of every exercise: how
its inputs are drawn and how an answer is called on them. What an answer should give lives in the
trusted package ``answer_key``, which a learner's installation does not carry and the grading
sandbox cannot import. The instructor pipeline lives in :mod:`autograder.pipeline` and is never
imported from here, so a learner's kernel does not load it; nor does importing this package import
torch, so that the instructor's command line (``autograd-state --help``) starts at once.

Importing it (every chapter's setup cell does) also makes the running IPython show an error a cell
raises with the cells' own frames and the message only (:mod:`autograder.engine.tracebacks`).
"""

from __future__ import annotations

from typing import Any

from autograder.engine import tracebacks

tracebacks.install()

__all__ = ["grade"]


def grade(grade_id: str, answer: Any, hidden: bool = False) -> None:
    """The call a test cell makes: pass silently, or fail with what the checks found."""
    __tracebackhide__ = True
    from autograder.kernel import grade as judged

    judged(grade_id, answer, hidden)

"""The closed-book companion of Chapter 7, "Keep a failure as a regression test": how
``capstone-reproduce`` is checked.

The companion gives a second failing fragment, ``fragment()``, built around another alias than
the chapter's: ``pow`` and ``abs`` saved their input ``scores`` for backward, and a ``detach()`` of
``scores`` — taken for the log — is clamped in place before ``backward()``. ``detach()`` shares
storage and the version counter, so the clamp moves the version of the tensor autograd saved. The
learner defines ``broken()`` (the same failure, 1-minimal), ``fixed()`` (the intended gradient,
the log still written) and ``test_regression()`` (graded by mutation), as Chapter 7 taught.

The visible checks look only at the form of each function's result; every check of behaviour is
hidden, observed with Chapter 7's drivers (:mod:`autograder.chapters.capstone`). The key, with the correct
pairs and mutants the test is run on (:mod:`autograder.engine.trials`), is in
``answer_key.capstone_closed_book``.

Defined in the closed-book companion of Chapter 7
(notebooks/capstone-closed-book/capstone-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.chapters.capstone import (
    DrawnInputs,
    alias_driver,
    failure_driver,
    fixed_driver,
    mutation_cases,
    reduction_driver,
)
from autograder.engine.cases import exercise
from autograder.engine.draw import Draw

BROKEN, FIXED, TEST = 0, 1, 2  # positions in the answer (broken, fixed, test_regression)


def closed_book_inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The fragment's data, fresh on every call: weights ``w`` (3, 5), a leaf that requires grad,
    and a batch ``x`` of 6 samples (6, 3)."""
    generator = torch.Generator().manual_seed(11)
    w = torch.randn(3, 5, generator=generator).requires_grad_()
    x = torch.randn(6, 3, generator=generator)
    return w, x


def log(*values: torch.Tensor) -> None:
    """Write values to the training log (in this notebook, nowhere)."""


PROVIDERS = (closed_book_inputs, log)


def _picked(position: int, driver: Callable[..., Any]) -> Callable[..., Any]:
    return lambda answer, *inputs: driver(answer[position], *inputs)


def _called(position: int) -> Callable[..., Any]:
    return lambda answer: answer[position]()


def _test_ran(answer: tuple) -> str:
    """Whether the learner's test passes on their own pair: ``"passes"`` or ``"fails"``."""
    try:
        answer[TEST]()
    except (KeyboardInterrupt, NotImplementedError):
        raise
    except BaseException:  # noqa: BLE001 - pytest's Failed is a BaseException
        return "fails"
    return "passes"


def _drawn(draw: Draw) -> tuple[DrawnInputs]:
    return (DrawnInputs(draw, ((3, 5), (6, 3))),)


# ------------------------------------------------------------------------------ cases
# The test cells pass the three functions as a tuple (the line stays within the page column):
# grade("capstone-reproduce", (broken, fixed, test_regression)).
reproduce = exercise("capstone-reproduce", "(broken, fixed, test_regression)", returns="observation",
                     agree="close", show=lambda inputs: "the fragment's inputs")
reproduce.case("broken-form", "broken()", tuple, subject="broken", call=_called(BROKEN), form="raises", points=0)
reproduce.case("fixed-form", "fixed()", tuple, subject="fixed", call=_called(FIXED), form="tensor", points=0)
reproduce.case("test-form", "test_regression()", tuple, subject="test_regression", call=_test_ran, form="str",
               points=0)
reproduce.case("broken-fails", "broken()", tuple, subject="broken", call=_picked(BROKEN, failure_driver(PROVIDERS)),
               hidden=True)
# The fragment's failure is a clamp through an alias of the scores pow and abs saved.
reproduce.case("broken-alias", "the in-place writes of broken()", tuple, subject="broken",
               call=_picked(BROKEN, alias_driver(PROVIDERS)), hidden=True)
reproduce.case("broken-minimal", "each one-statement deletion of broken()", tuple, subject="broken",
               call=_picked(BROKEN, reduction_driver(PROVIDERS)), hidden=True, points=2)
reproduce.case("fixed-gradient", "fixed()", _drawn, subject="fixed",
               call=_picked(FIXED, fixed_driver("closed_book_inputs", "log")), hidden=True,
               show=lambda inputs: "w and x drawn for this check, of the fragment's shapes")
reproduce.case("fixed-twice", "fixed(); fixed()", _drawn, subject="fixed",
               call=_picked(FIXED, fixed_driver("closed_book_inputs", "log", calls=2)), hidden=True,
               show=lambda inputs: "w and x drawn for this check, of the fragment's shapes")


mutation_cases(reproduce, __name__, pick=lambda answer: answer[TEST], prefix="test-", subject="test_regression")

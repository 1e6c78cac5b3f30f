"""The closed-book companion of Chapter 7, "Keep a failure as a regression test": its cases.

The companion gives a second failing fragment, ``fragment()``, built around another alias than the
chapter's: ``pow`` and ``abs`` saved their input ``scores`` for backward, and a ``detach()`` of
``scores`` — taken "for the log" — is clamped in place before ``backward()``. ``detach()`` shares
storage and the version counter, so the clamp moves the version of the tensor autograd saved. The
learner defines ``broken()`` (the same fingerprint, 1-minimal), ``fixed()`` (the intended
gradient) and ``test_regression()`` (graded by mutation), as Chapter 7 taught.

Defined in the closed-book companion of Chapter 7
(notebooks/capstone-closed-book/capstone-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch

from autograder.capstone import (
    ACCUMULATES,
    CALLS_HELPER,
    MISSES_OTHER_ERROR,
    MISSES_OTHER_TENSOR,
    MISSES_SILENCE,
    MISSES_SILENCED_FIX,
    NO_ERROR,
    NOT_MINIMAL,
    OTHER_ERROR,
    UNREADABLE,
    failure_diagnoses,
    mutation_cases,
    observe_gradient,
    observe_twice,
)
from autograder.checks import Diagnosis, Forbid, exercise
from autograder.draw import Draw
from autograder.recorder import DATA
from autograder.reduction import NOT_FAILING, deletable_count, failure_of, fingerprint_of, notebook_helpers
from autograder.values import close

INPUTS = "closed_book_inputs"
BROKEN, FIXED, TEST = 0, 1, 2  # positions in the answer (broken, fixed, test_regression)


def closed_book_inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The fragment's data, fresh on every call: weights ``w`` (3, 5), a leaf that requires grad,
    and a batch ``x`` of 6 samples (6, 3)."""
    generator = torch.Generator().manual_seed(11)
    w = torch.randn(3, 5, generator=generator).requires_grad_()
    x = torch.randn(6, 3, generator=generator)
    return w, x


def companion_loss(scores: torch.Tensor) -> torch.Tensor:
    """The fragment's loss: the mean energy of the scores plus an L1 sparsity term."""
    return scores.pow(2).mean() + 0.1 * scores.abs().mean()


def companion_fragment(inputs: Callable[[], tuple[torch.Tensor, torch.Tensor]] = closed_book_inputs) -> Any:
    """Trusted copy of the companion's ``fragment()``: it fails at backward."""
    w, x = inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = companion_loss(scores)
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    loss.backward()
    return w.grad


def intended_gradient(inputs: Callable[[], tuple[torch.Tensor, torch.Tensor]] = closed_book_inputs) -> torch.Tensor:
    """Trusted: the gradient the fragment meant to compute (the log's clamp touches nothing)."""
    w, x = inputs()
    companion_loss(x @ w + torch.full((5,), 0.1)).backward()
    return w.grad


def data_gradient() -> torch.Tensor:
    """A write through ``.data``: no error, and ``pow``'s and ``abs``'s backward read the clamped scores."""
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = companion_loss(scores)
    scores.data.clamp_(min=0.0)
    loss.backward()
    return w.grad


def reference_broken() -> None:
    """A 1-minimal reduction of the fragment."""
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()


def silent_broken() -> None:
    """Mutant: the clamp lands on a copy, so the reduction no longer raises."""
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clone().clamp_(min=0.0)
    loss.backward()


def leaf_broken() -> None:
    """Mutant: another RuntimeError, the in-place write to a leaf that requires grad."""
    w, _x = closed_book_inputs()
    w.clamp_(min=0.0)


def other_tensor_broken() -> None:
    """Mutant: the version-counter error on the output ``exp`` saved: another fingerprint."""
    w, x = closed_book_inputs()
    e = (x @ w).exp()
    e.detach().clamp_(min=0.0)
    e.sum().backward()


def reference_fixed() -> torch.Tensor:
    """The reference repair: the intended gradient."""
    return intended_gradient()


def data_fixed() -> torch.Tensor:
    """Mutant: a ``fixed`` silenced through ``.data``."""
    return data_gradient()


def fragment_failure() -> dict:
    return failure_of(companion_fragment)


def fragment_fingerprint() -> tuple[str, str]:
    """The companion fragment's fingerprint, observed (never typed in)."""
    return fingerprint_of(companion_fragment)


# ------------------------------------------------------------------------- drawn inputs
def drawn_inputs(draw: Draw) -> Callable[[], tuple[torch.Tensor, torch.Tensor]]:
    """A stand-in for ``closed_book_inputs``: the same shapes, values drawn from the seed."""
    w0, x0 = draw.randn(3, 5), draw.randn(6, 3)

    def inputs() -> tuple[torch.Tensor, torch.Tensor]:
        return w0.clone().requires_grad_(), x0.clone()

    return inputs


@contextmanager
def standing_in(function: Any, name: str, value: Any) -> Iterator[None]:
    """``value`` stands for the global ``name`` of ``function`` while the block runs."""
    namespace = function.__globals__ if hasattr(function, "__globals__") else {}
    missing = object()
    kept = namespace.get(name, missing)
    namespace[name] = value
    try:
        yield
    finally:
        if kept is missing:
            namespace.pop(name, None)
        else:
            namespace[name] = kept


def observe_on_inputs(answer: tuple, inputs: Callable[[], Any]) -> Any:
    """``fixed()`` run with drawn data standing for ``closed_book_inputs``."""
    with standing_in(answer[FIXED], INPUTS, inputs):
        return observe_gradient(answer[FIXED])


# ------------------------------------------------------------------------- messages
OTHER_TENSOR = (
    "the version-counter error, but not this one: its fingerprint names another tensor, operation "
    "or version. Keep the fragment's: the [6, 5] scores (the output of an addition) that pow and abs "
    "saved, written once through an alias."
)
STILL_RAISES = (
    "fixed() still raises the version-counter error: detach() shares storage and the version counter "
    "with scores, and torch.no_grad() does not stop a write from bumping it. Clamp a copy for the log "
    "(detach().clone(), or clamp out of place)."
)
DATA_WRITE = (
    "fixed() reads {call}: a clamp through .data hides the write from the version counter, and pow's "
    "and abs's backward then read the clamped scores, silently wrong."
)
SILENCED = (
    "that is the gradient of a silenced write: pow's and abs's backward read the clamped scores (as a "
    "clamp through .data does). Leave the saved scores intact: clamp a copy."
)
GRADIENT = "fixed() must return w.grad of the fragment's loss: a (3, 5) tensor equal to the intended gradient."
OWN_INPUTS = (
    "fixed() must build its data with closed_book_inputs() when it runs: the grader gave it other "
    "values of w and x, and its gradient did not follow them."
)


def _is(value: Any) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: found == value


def _matches(reference: Callable[[], torch.Tensor]) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: type(found) is torch.Tensor and close(found, reference())


_GRADIENT_DIAGNOSES = (
    Diagnosis(_is("still raises the version-counter error"), STILL_RAISES),
    Diagnosis(_matches(data_gradient), SILENCED),
)
_NO_DATA = (Forbid((DATA,), DATA_WRITE),)

# The test cells pass the three functions as a tuple (the line stays within the page column):
# grade("capstone-reproduce", (broken, fixed, test_regression)).
reproduce = exercise("capstone-reproduce", "(broken, fixed, test_regression)", returns="observation",
                     agree=close, answer="broken, fixed and test_regression")
reproduce.case("broken-fingerprint", "fingerprint of broken()", tuple,
               call=lambda answer: failure_of(answer[BROKEN]), expect=fragment_failure,
               otherwise=OTHER_ERROR, diagnoses=failure_diagnoses(fragment_failure, OTHER_TENSOR))
reproduce.case("broken-minimal", "statements of broken() that can be deleted, the failure unchanged", tuple,
               call=lambda answer: deletable_count(answer[BROKEN], fragment_fingerprint()),
               expect=lambda: 0, otherwise=NOT_MINIMAL, points=2,
               diagnoses=(Diagnosis(_is(NOT_FAILING), NO_ERROR),
                          Diagnosis(lambda found, _inputs: type(found) is str, UNREADABLE)))
reproduce.case("fixed-gradient", "fixed()", tuple,
               call=lambda answer: observe_gradient(answer[FIXED]), expect=intended_gradient,
               otherwise=GRADIENT, diagnoses=_GRADIENT_DIAGNOSES, forbid=_NO_DATA)
reproduce.case("broken-inlined", "functions of the notebook that broken() calls", tuple,
               call=lambda answer: notebook_helpers(answer[BROKEN]), expect=list,
               otherwise=CALLS_HELPER, hidden=True)
reproduce.case("fixed-twice", "fixed(); fixed()", tuple,
               call=lambda answer: observe_twice(answer[FIXED]), expect=intended_gradient,
               otherwise=ACCUMULATES, diagnoses=_GRADIENT_DIAGNOSES, hidden=True, forbid=_NO_DATA)
reproduce.case("fixed-drawn-inputs", "fixed() on other values of w and x",
               lambda draw: (drawn_inputs(draw),),
               call=observe_on_inputs, expect=intended_gradient,
               otherwise=OWN_INPUTS, diagnoses=_GRADIENT_DIAGNOSES, hidden=True, forbid=_NO_DATA)
mutation_cases(reproduce, reference_broken, reference_fixed, {
    "broken-no-longer-raises": ("test_regression() when broken() no longer raises",
                                (silent_broken, reference_fixed), MISSES_SILENCE, False),
    "broken-raises-another-error": ("a hidden mutant", (leaf_broken, reference_fixed), MISSES_OTHER_ERROR, True),
    "broken-another-tensor": ("a hidden mutant", (other_tensor_broken, reference_fixed), MISSES_OTHER_TENSOR,
                              True),
    "fixed-through-data": ("a hidden mutant", (reference_broken, data_fixed), MISSES_SILENCED_FIX, True),
}, pick=lambda answer: answer[TEST], prefix="test-")

"""Chapter 7, the capstone "Keep a failure as a regression test": the cases that grade its exercises.

The chapter hands the learner a training fragment that fails with the version-counter error far
from its cause: ``tanh`` saved its output ``hidden`` for backward, and a "dashboard" slice of
``hidden`` — a view, an alias of the saved tensor — is scaled in place before ``backward()``. The
learner writes ``fingerprint(fn)`` (the failure's identity: exception type and message), reduces
the fragment to a 1-minimal ``broken()`` (graded by deleting each of its statements in turn),
repairs it as ``fixed()`` returning the gradient the fragment meant to compute, and keeps both as
``test_regression()``, graded by mutation (:mod:`autograder.reduction`).

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F

from autograder.checks import Diagnosis, Exercise, Forbid, exercise, selftest
from autograder.recorder import DATA
from autograder.reduction import (
    NOT_FAILING,
    VERSION_COUNTER,
    deletable_count,
    failure_of,
    fingerprint_of,
    notebook_helpers,
    passes_with,
)
from autograder.values import close

TARGETS = (0, 2, 1, 3, 0)


def capstone_inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The fragment's data, fresh on every call: weights ``w`` (4, 6), a leaf that requires grad,
    and a batch ``x`` of 5 samples (5, 4)."""
    generator = torch.Generator().manual_seed(7)
    w = torch.randn(4, 6, generator=generator).requires_grad_()
    x = torch.randn(5, 4, generator=generator)
    return w, x


def readout() -> torch.Tensor:
    """The fragment's fixed read-out matrix (6, 4): hidden units to class scores."""
    return torch.linspace(-1.0, 1.0, 24).reshape(6, 4)


def fragment_loss(hidden: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The fragment's loss: cross-entropy of the targets plus a small weight penalty."""
    return F.cross_entropy(hidden @ readout(), torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()


def chapter_fragment() -> torch.Tensor:
    """Trusted copy of the chapter's training fragment (section 1): it fails at backward."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = fragment_loss(hidden, w)
    dashboard = hidden[:, 4:]
    dashboard.mul_(100)
    loss.backward()
    return w.grad


def intended_gradient() -> torch.Tensor:
    """Trusted: the gradient the fragment meant to compute (the dashboard write touches nothing)."""
    w, x = capstone_inputs()
    fragment_loss((x @ w).tanh(), w).backward()
    return w.grad


def data_gradient() -> torch.Tensor:
    """What a write through ``.data`` gives: no error, and a gradient computed by ``TanhBackward0``
    from the overwritten output (``1 - h²`` with ``h`` scaled by 100 in the last two units)."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = fragment_loss(hidden, w)
    hidden.data[:, 4:].mul_(100)
    loss.backward()
    return w.grad


# The reference pair and the grader's mutants, each a self-contained trusted function.
def reference_broken() -> None:
    """A 1-minimal reduction of the fragment."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()


def silent_broken() -> None:
    """Mutant: the reduction repaired (the write lands on a copy), so it no longer raises."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].clone().mul_(100)
    hidden.sum().backward()


def leaf_broken() -> None:
    """Mutant: another RuntimeError (an in-place write to a view of a leaf), raised at once."""
    w, _x = capstone_inputs()
    w[:, 4:].mul_(100)


def other_tensor_broken() -> None:
    """Mutant: the version-counter error, but on the output ``sigmoid`` saved: another fingerprint."""
    w, x = capstone_inputs()
    gate = (x @ w).sigmoid()
    gate[:, 4:].mul_(100)
    gate.sum().backward()


def reference_fixed() -> torch.Tensor:
    """The reference repair: the intended gradient."""
    return intended_gradient()


def data_fixed() -> torch.Tensor:
    """Mutant: a ``fixed`` that silences the error with ``.data`` and returns a wrong gradient."""
    return data_gradient()


def fragment_fingerprint() -> tuple[str, str]:
    """The fragment's fingerprint, observed (never typed in)."""
    return fingerprint_of(chapter_fragment)


# --------------------------------------------------------------------------- capstone-fingerprint
def _saved_output_failure(draw) -> tuple[Callable[[], Any]]:
    op = draw.choice(("exp", "tanh", "sigmoid"))
    shape = draw.shape(2, 2, 5)

    def fails() -> None:
        x = torch.randn(shape).requires_grad_()
        y = getattr(x, op)()
        y.mul_(2)
        y.sum().backward()

    return (fails,)


def _view_failure(draw) -> tuple[Callable[[], Any]]:
    size = draw.integer(3, 8)

    def fails() -> None:
        x = torch.randn(size, requires_grad=True)
        a = x * 1
        loss = a.pow(2).sum()
        a[1:].add_(1)
        loss.backward()

    return (fails,)


def _leaf_failure(draw) -> tuple[Callable[[], Any]]:
    size = draw.integer(2, 6)

    def fails() -> None:
        torch.zeros(size, requires_grad=True).add_(1)

    return (fails,)


def _shape_failure(draw) -> tuple[Callable[[], Any]]:
    rows, inner, other = draw.integer(2, 5), draw.integer(2, 5), draw.integer(6, 9)

    def fails() -> None:
        torch.ones(rows, inner) @ torch.ones(other, rows)

    return (fails,)


def _python_failure(draw) -> tuple[Callable[[], Any]]:
    rate = -draw.integer(1, 9) / 10

    def fails() -> None:
        raise ValueError(f"learning rate {rate} must be positive. Hint: check the schedule")

    return (fails,)


def _no_failure(draw) -> tuple[Callable[[], Any]]:
    size = draw.integer(2, 6)

    def passes() -> torch.Tensor:
        x = torch.randn(size, requires_grad=True)
        x.exp().sum().backward()
        return x.grad

    return (passes,)


KEEPS_HINT = (
    "the fingerprint is the message up to torch's ' Hint:': the hint is the same advice for every "
    "version-counter error and names nothing about this failure; cut it off (str(err).split(' Hint:')[0])."
)
TYPE_NAME = (
    "the first item is the exception's type name as a str, type(err).__name__ (e.g. 'RuntimeError'), "
    "not the class, its repr or the error object."
)
LETS_IT_THROUGH = (
    "fingerprint() let the error escape: catch every Exception, not only RuntimeError — a reduction "
    "can turn the failure into a NameError or a ValueError, and the fingerprint must say so."
)
NOT_NONE = "when fn() returns normally there is no failure to fingerprint: return None, not an empty value."
WHOLE_MESSAGE = (
    "the fingerprint keeps the message's text before ' Hint:' exactly (shape, operation, versions): "
    "no repr, no first word only, no lower-casing."
)
PAIR = "fingerprint(fn) returns a tuple (type name, message fingerprint) of two str, or None."


def _keeps_hint(found: Any, _inputs: tuple) -> bool:
    return "Hint:" in found[1]


def _type_not_named(found: Any, _inputs: tuple) -> bool:
    return type(found) is tuple and len(found) == 2 and not str(found[0]).isidentifier()


def _not_none(found: Any, _inputs: tuple) -> bool:
    return found is not None


fingerprint = exercise("capstone-fingerprint", "fingerprint", returns="observation", otherwise=WHOLE_MESSAGE,
                       expect=fingerprint_of)
_FINGERPRINT_DIAGNOSES = (
    Diagnosis(lambda found, _inputs: True, LETS_IT_THROUGH, on_raise=True),
    Diagnosis(lambda found, _inputs: type(found) is not tuple or len(found) != 2, PAIR),
    Diagnosis(_keeps_hint, KEEPS_HINT),
    Diagnosis(_type_not_named, TYPE_NAME),
)
fingerprint.case("saved-output", "fingerprint(fn): fn writes in place to the output exp/tanh/sigmoid saved",
                 _saved_output_failure, diagnoses=_FINGERPRINT_DIAGNOSES)
fingerprint.case("no-error", "fingerprint(fn): fn returns normally", _no_failure,
                 diagnoses=(Diagnosis(_not_none, NOT_NONE), *_FINGERPRINT_DIAGNOSES))
fingerprint.case("leaf", "fingerprint(fn): fn writes in place to a leaf", _leaf_failure,
                 diagnoses=_FINGERPRINT_DIAGNOSES)
fingerprint.case("view-of-saved-input", "a hidden failure", _view_failure, hidden=True,
                 diagnoses=_FINGERPRINT_DIAGNOSES)
fingerprint.case("shape-mismatch", "a hidden failure", _shape_failure, hidden=True,
                 diagnoses=_FINGERPRINT_DIAGNOSES)
fingerprint.case("python-error", "a hidden failure", _python_failure, hidden=True,
                 diagnoses=_FINGERPRINT_DIAGNOSES)


# --------------------------------------------------------------------------- capstone-regression
NO_ERROR = (
    "broken() must still fail: a reduction that no longer raises has reduced the bug away. Keep the "
    "tensor autograd saved, the in-place write through its alias, and the backward() that reads it."
)
HAND_RAISED = (
    "broken() raises the error itself: a regression test of a raise statement keeps nothing. Run the "
    "statements so that torch raises the version-counter error."
)
LEAF_ERROR = (
    "that is the leaf error (an in-place write to a leaf, or a view of one, that requires grad), "
    "raised at once; the failure to keep is the version-counter error that backward() raises."
)
OTHER_TENSOR = (
    "the version-counter error, but not this one: its fingerprint names another tensor, operation "
    "or version. Reduce *this* failure: the [5, 6] output tanh saved, written once through a view."
)
OTHER_ERROR = (
    "broken() must raise the fragment's RuntimeError ('... modified by an inplace operation ...'), "
    "not another error: a reduction that fails differently reproduces another bug."
)
NOT_MINIMAL = (
    "broken() is not 1-minimal: the grader deleted each statement in turn, and some deletions still "
    "fail with the same fingerprint (found: how many). Delete statements one at a time, check the "
    "fingerprint after each, and keep only what the failure needs."
)
UNREADABLE = (
    "broken() cannot be reduced statement by statement: define it with def at the top level of its "
    "cell, so that the grader can read its source and delete each statement in turn."
)
CALLS_HELPER = (
    "broken() calls a function defined in the notebook: its statements hide inside the helper, out of "
    "reach of the deletion test. Inline what broken() needs from it."
)
STILL_RAISES = (
    "fixed() still raises the version-counter error: torch.no_grad() and detach() do not stop an "
    "in-place write from bumping the version of the saved output (a detached view shares its version "
    "counter). Write the dashboard values into a new tensor: a clone, or out of place."
)
DATA_WRITE = (
    "fixed() reads {call}: writing through .data hides the in-place write from the version counter, "
    "and backward then computes tanh's gradient from the overwritten output, silently wrong."
)
SILENCED = (
    "that is the gradient of a silenced write: backward read the overwritten output (as a write "
    "through .data does). Leave tanh's output intact: scale a copy."
)
GRADIENT = "fixed() must return w.grad of the fragment's loss: a (4, 6) tensor equal to the intended gradient."
ACCUMULATES = (
    "fixed() must start from fresh inputs on every call (w, x = capstone_inputs()): a w kept between "
    "calls accumulates its .grad, so the second call returns twice the gradient."
)


def observe_gradient(answer: Callable[[], Any]) -> Any:
    """``fixed()``'s result; a version-counter error is reported as a result, not as a crash."""
    try:
        return answer()
    except RuntimeError as err:
        if VERSION_COUNTER in str(err):
            return "still raises the version-counter error"
        raise


def observe_twice(answer: Callable[[], Any]) -> Any:
    """``fixed()`` called twice: the second result must be the same gradient."""
    observe_gradient(answer)
    return observe_gradient(answer)


def _failure_is(test: Callable[[dict], bool]) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: found is not None and test(found)


def failure_diagnoses(expected: Callable[[], dict], other_tensor: str = OTHER_TENSOR) -> tuple[Diagnosis, ...]:
    """How a reduction's failure differs from the fragment's, most specific first.

    Args:
        expected: The fragment's failure (:func:`~autograder.reduction.failure_of`).
        other_tensor: The message for the version-counter error on another tensor.
    """
    return (
        Diagnosis(lambda found, _inputs: found is None, NO_ERROR),
        Diagnosis(_failure_is(lambda f: not f["by_torch"]), HAND_RAISED),
        Diagnosis(_failure_is(lambda f: "leaf Variable" in f["message"]), LEAF_ERROR),
        Diagnosis(_failure_is(lambda f: VERSION_COUNTER in f["message"] and f != expected()), other_tensor),
    )


def _is(value: Any) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: found == value


def _matches(reference: Callable[[], torch.Tensor]) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: type(found) is torch.Tensor and close(found, reference())


def _fragment_failure() -> dict:
    return failure_of(chapter_fragment)


def _minimal(pair: dict) -> int | str:
    return deletable_count(pair["broken"], fragment_fingerprint())


# The test cells pass both functions: grade("capstone-regression", {"broken": broken, "fixed": fixed}).
regression = exercise("capstone-regression", '{"broken": broken, "fixed": fixed}', returns="observation",
                      agree=close, answer="broken and fixed")
_GRADIENT_DIAGNOSES = (
    Diagnosis(_is("still raises the version-counter error"), STILL_RAISES),
    Diagnosis(_matches(data_gradient), SILENCED),
)
regression.case("broken-fingerprint", "fingerprint of broken()", tuple,
                call=lambda pair: failure_of(pair["broken"]), expect=_fragment_failure,
                otherwise=OTHER_ERROR, diagnoses=failure_diagnoses(_fragment_failure))
regression.case("broken-minimal", "statements of broken() that can be deleted, the failure unchanged", tuple,
                call=_minimal, expect=lambda: 0, otherwise=NOT_MINIMAL, points=2,
                diagnoses=(Diagnosis(_is(NOT_FAILING), NO_ERROR),
                           Diagnosis(lambda found, _inputs: type(found) is str, UNREADABLE)))
regression.case("fixed-gradient", "fixed()", tuple,
                call=lambda pair: observe_gradient(pair["fixed"]), expect=intended_gradient,
                otherwise=GRADIENT, diagnoses=_GRADIENT_DIAGNOSES, forbid=(Forbid((DATA,), DATA_WRITE),))
regression.case("broken-inlined", "functions of the notebook that broken() calls", tuple,
                call=lambda pair: notebook_helpers(pair["broken"]), expect=list,
                otherwise=CALLS_HELPER, hidden=True)
regression.case("fixed-twice", "fixed(); fixed()", tuple,
                call=lambda pair: observe_twice(pair["fixed"]), expect=intended_gradient,
                otherwise=ACCUMULATES, diagnoses=_GRADIENT_DIAGNOSES, hidden=True,
                forbid=(Forbid((DATA,), DATA_WRITE),))


# --------------------------------------------------------------------------- capstone-regression-test
FAILS_ON_REFERENCE = (
    "test_regression() must pass on a correct pair: on the grader's 1-minimal broken() and its "
    "repaired fixed() it failed. Does it call broken() inside pytest.raises(...), and compare fixed() "
    "with an independent computation of the same loss's gradient?"
)
MISSES_SILENCE = (
    "test_regression() passed although broken() no longer raises: a regression test must fail when "
    "the failure it keeps disappears. Call broken() inside pytest.raises(RuntimeError, match=...)."
)
MISSES_OTHER_ERROR = (
    "test_regression() passed although broken() raises another error: pin the fingerprint, the "
    "exception type *and* its message (pytest.raises(RuntimeError, match=re.escape(...)) or compare "
    "fingerprints), not only 'some RuntimeError'."
)
MISSES_OTHER_TENSOR = (
    "test_regression() passed although broken() raises the version-counter error on another tensor: "
    "'modified by an inplace operation' matches every such error. Match the whole fingerprint, up to "
    "' Hint:' (the shape, the operation, the versions)."
)
MISSES_SILENCED_FIX = (
    "test_regression() passed although fixed() returns the gradient of a write silenced through .data: "
    "compare fixed()'s values with an independent computation (torch.testing.assert_close), not only "
    "its type or shape."
)


def mutation_cases(declared: Exercise, broken: Callable, fixed: Callable, mutants: dict,
                   pick: Callable[[Any], Any] = lambda answer: answer, prefix: str = "") -> None:
    """Declare the mutation cases of a regression-test exercise.

    Args:
        declared: The exercise whose answer holds the learner's ``test_regression``.
        broken: The reference reduction.
        fixed: The reference repair.
        mutants: Case name -> (probe, (broken, fixed) stand-ins, message, hidden).
        pick: Reads ``test_regression`` from the answer.
        prefix: Put before each case name (an exercise that grades more than the test).
    """
    declared.case(f"{prefix}passes-on-reference", "test_regression() on the reference broken/fixed pair",
                  tuple, call=lambda answer: passes_with(pick(answer), broken, fixed), expect=lambda: True,
                  otherwise=FAILS_ON_REFERENCE, returns="bool")
    for name, (probe, (mutant_broken, mutant_fixed), message, hidden) in mutants.items():
        declared.case(f"{prefix}{name}", probe, tuple, hidden=hidden, otherwise=message, expect=lambda: False,
                      returns="bool",
                      call=lambda answer, b=mutant_broken, f=mutant_fixed: passes_with(pick(answer), b, f))


regression_test = exercise("capstone-regression-test", "test_regression")
mutation_cases(regression_test, reference_broken, reference_fixed, {
    "broken-no-longer-raises": ("test_regression() when broken() no longer raises",
                                (silent_broken, reference_fixed), MISSES_SILENCE, False),
    "broken-raises-another-error": ("a hidden mutant", (leaf_broken, reference_fixed), MISSES_OTHER_ERROR, True),
    "broken-another-tensor": ("a hidden mutant", (other_tensor_broken, reference_fixed), MISSES_OTHER_TENSOR,
                              True),
    "fixed-through-data": ("a hidden mutant", (reference_broken, data_fixed), MISSES_SILENCED_FIX, True),
})


# --------------------------------------------------------------------------- capstone-selftest
def _fails_like_fragment(write: Callable[[torch.Tensor], None]) -> bool:
    def variant() -> None:
        w, x = capstone_inputs()
        hidden = (x @ w).tanh()
        loss = fragment_loss(hidden, w)
        write(hidden)
        loss.backward()

    return fingerprint_of(variant) == fragment_fingerprint()


def _no_grad_avoids_the_error() -> bool:
    def scaled_under_no_grad(hidden: torch.Tensor) -> None:
        with torch.no_grad():
            hidden[:, 4:].mul_(100)

    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = fragment_loss(hidden, w)
    scaled_under_no_grad(hidden)
    try:
        loss.backward()
    except RuntimeError:
        return False
    return True


def _name_error_is_the_failure() -> bool:
    def reduced() -> None:
        hidden = (x @ w).tanh()  # noqa: F821 - the deleted line defined w and x
        hidden.sum().backward()

    return fingerprint_of(reduced) == fragment_fingerprint()


def _loose_match_passes_the_leaf_error() -> bool:
    try:
        with pytest.raises(RuntimeError):
            leaf_broken()
    except BaseException:  # noqa: BLE001 - pytest's Failed is a BaseException
        return False
    return True


def _selftest_expectations() -> dict[str, tuple[str, str, Callable[[], object], str]]:
    """Question key -> (question, result kind, expected value (computed lazily), misconception)."""
    return {
        "q1": ("Deleting `w, x = capstone_inputs()` from a candidate makes it raise NameError: does the "
               "candidate still fail the same way (True/False)?", "bool", _name_error_is_the_failure,
               "a NameError has another fingerprint: the deletion made the failure disappear, so the "
               "statement stays."),
        "q2": ("With `dashboard = hidden[:, 4:].detach()` before the in-place scaling, does the fragment "
               "still fail the same way (True/False)?", "bool",
               lambda: _fails_like_fragment(lambda hidden: hidden[:, 4:].detach().mul_(100)),
               "detach() shares storage and the version counter: the write through it still bumps "
               "the version of the output tanh saved."),
        "q3": ("With `dashboard.mul_(100)` run under `torch.no_grad()`, does the fragment avoid the "
               "error (True/False)?", "bool", _no_grad_avoids_the_error,
               "no_grad stops recording operations, not the version counter: the write still bumps "
               "the version of the output tanh saved."),
        "q4": ("Does `pytest.raises(RuntimeError)` without `match=` pass when broken() raises the leaf "
               "error instead (True/False)?", "bool", _loose_match_passes_the_leaf_error,
               "pytest.raises(RuntimeError) accepts every RuntimeError: without match= a different bug "
               "passes the test."),
    }


selftest("capstone-selftest", _selftest_expectations, hidden=("q3", "q4"))

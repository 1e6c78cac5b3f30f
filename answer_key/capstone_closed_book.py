"""The key of Chapter 7's closed-book companion: the reference reduction, repair and test, and the
mistakes, each as a learner writes it and run through the companion's drivers.

The functions read ``closed_book_inputs`` and ``log`` as the companion's notebook does, so the
drivers' stand-ins reach them the same way; a test reads ``broken`` and ``fixed`` when it runs.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest
import torch

from answer_key.keys import Model, key
from autograder.chapters.capstone_closed_book import closed_book_inputs, log

__all__ = ["closed_book_inputs", "log"]


def fragment() -> torch.Tensor:
    """The companion's fragment, as its locked cell has it."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    loss = energy + 0.1 * sparsity
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad


def broken() -> None:
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()


def fixed() -> torch.Tensor:
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    monitor = scores.detach().clone()
    monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad


def test_regression() -> None:
    with pytest.raises(RuntimeError) as original:
        fragment()
    expected = str(original.value).split(" Hint:")[0]
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        broken()  # noqa: F821 - the name stands for the pair the grader gives
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (intended,) = torch.autograd.grad(scores.pow(2).mean() + 0.1 * scores.abs().mean(), w)
    torch.testing.assert_close(fixed(), intended)  # noqa: F821


# --------------------------------------------------------------------------- the mistakes
def _broken_reduced_away() -> None:
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = (scores * 2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()


def _broken_without_alias() -> None:
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    with torch.no_grad():
        scores.clamp_(min=0.0)
    loss.backward()


def _broken_leaf() -> None:
    w, x = closed_book_inputs()
    w.clamp_(min=0.0)


def _broken_not_minimal() -> None:
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    history = [monitor.mean(dim=0)]  # noqa: F841 - the statement a reduction should have dropped
    loss.backward()


def _fixed_through_data() -> torch.Tensor:
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    scores.data.clamp_(min=0.0)
    log(scores.detach().mean(dim=0))
    loss.backward()
    return w.grad


def _fixed_no_grad() -> torch.Tensor:
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    with torch.no_grad():
        monitor = scores.detach()
        monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad


def _fixed_without_log() -> torch.Tensor:
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    return w.grad


def _asserts_nothing() -> None:
    pass


def _any_runtime_error() -> None:
    with pytest.raises(RuntimeError):
        broken()  # noqa: F821
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (intended,) = torch.autograd.grad(scores.pow(2).mean() + 0.1 * scores.abs().mean(), w)
    torch.testing.assert_close(fixed(), intended)  # noqa: F821


def _type_only() -> None:
    with pytest.raises(RuntimeError) as original:
        fragment()
    with pytest.raises(RuntimeError, match=re.escape(str(original.value).split(" Hint:")[0])):
        broken()  # noqa: F821
    assert fixed().shape == (3, 5)  # noqa: F821


def _answer(**replaced: Any) -> tuple:
    chosen = {"broken": broken, "fixed": fixed, "test_regression": test_regression, **replaced}
    return chosen["broken"], chosen["fixed"], chosen["test_regression"]


key("capstone-reproduce", _answer(), models=[
    Model("reduced-away", _answer(broken=_broken_reduced_away),
          "a reduction that no longer fails still kept the failure."),
    Model("not-minimal", _answer(broken=_broken_not_minimal),
          "statements the failure does not need belonged in the reduction."),
    Model("no-alias", _answer(broken=_broken_without_alias),
          "the detach() the fragment clamps through could go from the reduction, as long as the message "
          "stayed the same."),
    Model("leaf-error", _answer(broken=_broken_leaf),
          "the in-place write to the leaf w, refused at once, were the failure backward() raises."),
    Model("silenced", _answer(fixed=_fixed_through_data),
          "a clamp through .data changed the log without changing the gradient."),
    Model("still-raises", _answer(fixed=_fixed_no_grad),
          "a write to an alias of the scores, made before backward(), left the tensor pow and abs saved alone."),
    Model("no-log", _answer(fixed=_fixed_without_log), "the log could go from the repaired step."),
    Model("asserts-nothing", _answer(test_regression=_asserts_nothing),
          "a test that passes whatever broken() and fixed() do could keep a failure."),
    Model("any-runtime-error", _answer(test_regression=_any_runtime_error),
          "any RuntimeError from broken() were the fragment's failure."),
    Model("type-only", _answer(test_regression=_type_only),
          "a tensor of the right shape from fixed() were the right gradient."),
])


# --------------------------------------------------------------------------- the grader's pairs
# Two correct pairs and the mutants of the test (:mod:`autograder.engine.trials`), as source: each runs
# in a job of its own, never labelled, in the namespace of the test it is given; each fixed()
# writes the log, as a repaired fragment does.
_READS = "import torch\nfrom autograder.chapters.capstone_closed_book import closed_book_inputs, log\n"
_BROKEN_ONE = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()
'''
_LOSS = '''
def _loss(w, x):
    scores = x @ w + torch.full((5,), 0.1)
    return scores.pow(2).mean() + 0.1 * scores.abs().mean()
'''
_FIXED_ONE = _LOSS + '''
def fixed():
    w, x = closed_book_inputs()
    loss = _loss(w, x)
    log((x @ w + 0.1).detach().clamp(min=0.0).mean(dim=0))
    loss.backward()
    return w.grad
'''
TRIALS = {
    "correct-one": _READS + _BROKEN_ONE + _FIXED_ONE,
    "correct-two": _READS + _LOSS + '''
def broken():
    weights, batch = closed_book_inputs()
    scores = torch.add(batch @ weights, 0.1)
    total = scores.abs().mean()
    monitor = scores.detach()
    monitor.clamp_(0.0)
    torch.autograd.grad(total, weights)


def fixed():
    weights, batch = closed_book_inputs()
    monitor = torch.add(batch @ weights, 0.1).detach().clamp(0.0)
    log(monitor.mean(dim=0))
    (grad,) = torch.autograd.grad(_loss(weights, batch), weights)
    return grad
''',
    "broken-no-longer-raises": _READS + _FIXED_ONE + '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clone().clamp_(min=0.0)
    loss.backward()
''',
    "broken-raises-another-error": _READS + _FIXED_ONE + '''
def broken():
    w, _x = closed_book_inputs()
    w.clamp_(min=0.0)
''',
    "broken-another-tensor": _READS + _FIXED_ONE + '''
def broken():
    w, x = closed_book_inputs()
    e = (x @ w).exp()
    e.detach().clamp_(min=0.0)
    e.sum().backward()
''',
    "broken-another-version": _READS + _FIXED_ONE + '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0).clamp_(max=10.0)
    loss.backward()
''',
    "broken-another-shape": _READS + _FIXED_ONE + '''
def broken():
    w, x = closed_book_inputs()
    scores = x[:3] @ w + 0.1
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()
''',
    "fixed-drops-a-loss-term": _READS + _BROKEN_ONE + '''
def fixed():
    w, x = closed_book_inputs()
    loss = (x @ w + torch.full((5,), 0.1)).pow(2).mean()  # the 0.1 * |scores| term dropped
    log((x @ w + 0.1).detach().clamp(min=0.0).mean(dim=0))
    loss.backward()
    return w.grad
''',
    # The mutant is the silenced repair the key already models as a learner's mistake.
    "fixed-through-data": _READS + _BROKEN_ONE + "\n"
    + inspect.getsource(_fixed_through_data).replace("def _fixed_through_data", "def fixed", 1),
}

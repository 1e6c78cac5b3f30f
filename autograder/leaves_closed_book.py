"""The closed-book companion of Chapter 4, "Leaves, ``.grad`` and accumulation": its cases.

``two_objectives(w0, f, g)`` reproduces accumulation on purpose: a leaf ``w`` from ``w0``,
``backward`` of ``f(w).sum()``, then of ``g(w).sum()`` without zeroing, then zeroing and
``backward`` of ``g(w).sum()`` again, returning a copy of ``w.grad`` after each. The cases draw
``w0`` and the pair ``f``, ``g`` per call from ops that save their input, ops that save their output
and custom ``torch.autograd.Function`` s, so a formula remembered for one op cannot pass; the
expected gradients are asked of autograd.

Defined in the closed-book companion of Chapter 4 (notebooks/leaves-closed-book/leaves-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, Forbid, exercise
from autograder.draw import Draw
from autograder.elementwise import ALL_OPS, CUSTOM, SAVE_INPUT, SAVE_OUTPUT, Op, derivative
from autograder.recorder import DATA
from autograder.values import close

Fn = Callable[[torch.Tensor], torch.Tensor]


def reference(w0: torch.Tensor, f: Fn, g: Fn) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Trusted reference: ``f′``, ``f′ + g′`` and ``g′`` at ``w0``, each asked of autograd."""
    df, dg = derivative(f, w0), derivative(g, w0)
    return df, df + dg, dg


def drive(answer: Callable, w0: torch.Tensor, f: Fn, g: Fn) -> dict[str, Any]:
    """Call ``two_objectives`` on a copy of ``w0``; report its three records as plain data."""
    given = w0.clone()
    found = answer(given, f, g)
    if type(found) is not tuple or len(found) != 3 or not all(type(t) is torch.Tensor for t in found):
        return {"records": f"<{type(found).__name__}, not a tuple of three tensors>",
                "input_untouched": True, "shared": False}
    shared = any(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
                 for i, a in enumerate(found) for b in found[i + 1:])
    return {
        "records": [t.detach().clone() for t in found],
        "input_untouched": not given.requires_grad and torch.equal(given, w0),
        "shared": shared,
    }


def expect(w0: torch.Tensor, f: Fn, g: Fn) -> dict[str, Any]:
    return {"records": list(reference(w0, f, g)), "input_untouched": True, "shared": False}


def _agree(found: Any, expected: Any) -> bool:
    return close(found, expected, rtol=1e-4, atol=1e-5)


def _records(found: Any) -> list[torch.Tensor] | None:
    records = found.get("records") if type(found) is dict else None
    return records if type(records) is list else None


def _not_three_tensors(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and type(found.get("records")) is str


def _shares(found: Any, _inputs: tuple) -> bool:
    return found.get("shared") is True


def _zeroed_before_second(found: Any, inputs: tuple) -> bool:
    records = _records(found)
    w0, _f, g = inputs
    return records is not None and _agree(records[1], derivative(g, w0))


def _not_zeroed_before_third(found: Any, inputs: tuple) -> bool:
    records = _records(found)
    w0, f, g = inputs
    return records is not None and _agree(records[2], derivative(f, w0) + 2 * derivative(g, w0))


def _input_changed(found: Any, _inputs: tuple) -> bool:
    return found.get("input_untouched") is False


def _second_backward(raised: Any, _inputs: tuple) -> bool:
    return "backward through the graph a second time" in raised.message


def _no_grad(raised: Any, _inputs: tuple) -> bool:
    return "does not require grad" in raised.message


NOT_THREE = "two_objectives must return a tuple of three tensors: w.grad after each backward()."
SHARED = (
    "the three records must be copies (w.grad.clone()): w.grad is one tensor that backward() adds "
    "into in place, so a record that is w.grad itself changes with every later backward."
)
ZEROED_TOO_EARLY = (
    "the second backward() must add to .grad without zeroing: after f then g, w.grad holds f′ + g′. "
    "Accumulation is what the task reproduces."
)
NOT_ZEROED = (
    "before the third backward() the gradient must be zeroed (w.grad = None or w.grad.zero_()); "
    "otherwise it holds f′ + 2·g′, not g′."
)
INPUT_CHANGED = (
    "make the leaf from a copy (w = w0.clone().requires_grad_()): requires_grad_() or a write on w0 "
    "itself changes the caller's tensor."
)
GRAPH_FREED = (
    "each backward() frees the graph it ran through: build g(w) again for the third backward (or keep "
    "the graph with retain_graph=True)."
)
NOT_A_LEAF_THAT_REQUIRES_GRAD = (
    "w must be a leaf that requires grad (w0.clone().requires_grad_()), or backward() has nothing to "
    "fill: 'element 0 of tensors does not require grad'."
)
OTHERWISE = (
    "the records must be f′(w0), then f′(w0) + g′(w0) (backward adds into .grad), then g′(w0) after "
    "zeroing — for whichever elementwise f and g are given: let backward compute them, do not write a "
    "formula for one op."
)
USES_AUTOGRAD_GRAD = Forbid(
    ("grad",),
    "the task reproduces accumulation in .grad: call backward() and read w.grad. torch.autograd.grad "
    "returns gradients without accumulating them (the answer calls {call}).",
)
USES_DATA = Forbid((DATA,), "the answer reads {call}: work with w and w.grad themselves.")


def _pair(draw: Draw, first: dict[str, Op], second: dict[str, Op]) -> tuple[torch.Tensor, Op, Op]:
    f = draw.choice(sorted(first))
    g = draw.choice([name for name in sorted(second) if name != f])
    w0 = draw.randn(*draw.shape(draw.integer(1, 3), high=4))
    return w0, first[f], second[g]


two_objectives = exercise(
    "leaves-reproduce", "two_objectives", returns="observation", call=drive, expect=expect, agree=_agree,
    otherwise=OTHERWISE, forbid=(USES_AUTOGRAD_GRAD, USES_DATA),
    diagnoses=(
        Diagnosis(_not_three_tensors, NOT_THREE),
        Diagnosis(_input_changed, INPUT_CHANGED),
        Diagnosis(_shares, SHARED),
        Diagnosis(_zeroed_before_second, ZEROED_TOO_EARLY),
        Diagnosis(_not_zeroed_before_third, NOT_ZEROED),
        Diagnosis(_second_backward, GRAPH_FREED, on_raise=True),
        Diagnosis(_no_grad, NOT_A_LEAF_THAT_REQUIRES_GRAD, on_raise=True),
    ),
)
two_objectives.case("sin-then-square", "two_objectives(w0, torch.sin, lambda w: w ** 2)",
                    lambda: (torch.tensor([0.5, 1.0, 2.0]), torch.sin, lambda w: w ** 2))
two_objectives.case("exp-then-tanh", "two_objectives(w0, torch.exp, torch.tanh), w0 of shape (2, 3)",
                    lambda: (torch.linspace(-1.0, 1.0, 6).view(2, 3), torch.exp, torch.tanh))
two_objectives.case("input-then-output", "a hidden pair: an op that saves its input, one that saves its output",
                    lambda draw: _pair(draw, SAVE_INPUT, SAVE_OUTPUT), hidden=True, points=2)
two_objectives.case("output-then-input", "a hidden pair: an op that saves its output, one that saves its input",
                    lambda draw: _pair(draw, SAVE_OUTPUT, SAVE_INPUT), hidden=True, points=2)
two_objectives.case("custom-functions", "a hidden pair of custom autograd Functions",
                    lambda draw: _pair(draw, {"Cube": CUSTOM["Cube"]}, {"SoftClip": CUSTOM["SoftClip"]}),
                    hidden=True, points=2)
two_objectives.case("any-pair", "a hidden pair of any two ops",
                    lambda draw: _pair(draw, {**ALL_OPS, **CUSTOM}, {**ALL_OPS, **CUSTOM}), hidden=True, points=2)

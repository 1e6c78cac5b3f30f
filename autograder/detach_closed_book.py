"""The closed-book companion of Chapter 3, "detach versus clone": the cases of
``detach-reproduce``.

The learner cuts one path out of the gradient: ``y = f(x)``, ``u = y.detach()``,
``z = (x * u).sum()``, backward, and returns the leaf ``x``, whose ``.grad`` is then ``f(x0)``
alone — without the detach it would be ``f(x0) + x0 · f′(x0)``. ``f`` varies between ops that
save their input, ops that save their output and a custom ``torch.autograd.Function``
(:mod:`autograder.elementwise`), so only the mechanism passes. The trusted driver checks that the
gradient was set by backward through the ``f`` given, on the leaf returned; ``.data`` is refused.

Defined in the closed-book companion of Chapter 3, "detach versus clone"
(notebooks/detach-closed-book/detach-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, Forbid, exercise
from autograder.draw import Draw
from autograder.elementwise import ALL_OPS, SAVE_INPUT, SAVE_OUTPUT, Op, Tracked, derivative, drawn_op
from autograder.recorder import DATA, CallRecorder
from autograder.values import close, type_name


def x0_and(ops: dict[str, Op], matrix: bool = False) -> Callable[[Draw], tuple]:
    """Inputs ``(x0, f)``: a drawn vector (or matrix) and an op drawn from ``ops``."""

    def recipe(draw: Draw) -> tuple:
        shape = (draw.integer(2, 3), draw.integer(2, 4)) if matrix else (draw.integer(2, 6),)
        return draw.randn(*shape), drawn_op(draw, ops)[1]

    return recipe


def fixed(op: Op) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        return draw.randn(draw.integer(3, 6)), op

    return recipe


def observe_cut(answer: Callable, x0: torch.Tensor, f: Op) -> dict[str, Any]:
    """Run ``cut_leaf(x0, f)`` with a tracked ``f``; report what it returned and how its
    gradient came about, as plain data."""
    tracked = Tracked(f, getattr(f, "__name__", "f"))
    recorder = CallRecorder(("backward",))
    with recorder:
        result = answer(x0.clone(), tracked)
    is_tensor = type(result) is torch.Tensor
    if not is_tensor:
        grad: Any = f"<{type_name(result)} returned, not the leaf x>"
    elif result.grad is None:
        grad = "<no .grad>"
    else:
        grad = result.grad.detach().clone()
    # Flags first, values last: a learner reads the difference before a report is cut short.
    return {
        "returned a leaf that requires grad": is_tensor and result.is_leaf and result.requires_grad,
        "f applied": bool(tracked.inputs),
        "backward called": "backward" in recorder.calls,
        "returned x0's values": is_tensor and result.shape == x0.shape and bool(torch.equal(result.detach(), x0)),
        "grad": grad,
    }


def expect_cut(x0: torch.Tensor, f: Op) -> dict[str, Any]:
    return {"returned a leaf that requires grad": True, "f applied": True, "backward called": True,
            "returned x0's values": True, "grad": f(x0)}


MESSAGES = {
    "not_the_leaf": (
        "return the leaf x itself (the grader reads its .grad): a leaf that requires grad; not x.grad, y, u, "
        "z, a detach() of x (a reading of the same page with no ledger entry) or a copy."
    ),
    "f_ignored": (
        "the tests vary f: compute y = f(x) with the f you are given, not with an op you remember; the "
        "gradient the tests expect is f(x0) for their f."
    ),
    "no_backward": (
        "x.grad must be set by backward: call z.backward() on z = (x * u).sum(); a gradient written into "
        ".grad by hand reproduces nothing."
    ),
    "not_cut": (
        "u still has its ledger entry back to x: the gradient picked up x0 · f'(x0) through u as well. "
        "u = y.detach() is a reading of y's page with no entry; y.clone() copies onto a new page WITH an "
        "entry, so it cuts nothing."
    ),
    "wrong_factor": (
        "you cut the wrong factor: detaching x (or computing x * u from x.detach()) keeps the path through "
        "u = f(x) and drops the direct one; detach y, so the gradient is u = f(x0)."
    ),
    "twice": (
        "the gradient is twice f(x0): backward ran twice, and .grad is an account balance, deposits add up. "
        "Backpropagate once."
    ),
    "no_grad": (
        "x.grad is None: backward never reached the leaf x you returned (the product used a detached or "
        "copied x, or the returned tensor is not the one the forward used)."
    ),
    "otherwise": (
        "cut_leaf(x0, f): x = x0.clone().requires_grad_(), y = f(x), u = y.detach(), z = (x * u).sum(), "
        "z.backward(), return x; then x.grad equals f(x0)."
    ),
}

NO_DATA = Forbid(
    (DATA,),
    "the answer reads {call}: .data also cuts the ledger entry, but it is hidden from the version counter "
    "as well; the chapter's tool for 'the same page, no entry' is detach().",
)


def _flag(name: str, value: Any) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, _inputs: tuple) -> bool:
        return type(found) is dict and name in found and found[name] == value

    return matches


def _grad_is(model: Callable[[torch.Tensor, Op], torch.Tensor]) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, inputs: tuple) -> bool:
        grad = found.get("grad") if type(found) is dict else None
        x0, f = inputs
        wrong = model(x0, f)
        return type(grad) is torch.Tensor and close(grad, wrong) and not close(wrong, f(x0))

    return matches


def _no_grad(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("grad") == "<no .grad>"


reproduce = exercise(
    "detach-reproduce", "cut_leaf", returns="observation", call=observe_cut, expect=expect_cut, agree=close,
    forbid=(NO_DATA,), otherwise=MESSAGES["otherwise"],
    diagnoses=(
        Diagnosis(_flag("returned a leaf that requires grad", False), MESSAGES["not_the_leaf"]),
        Diagnosis(_flag("f applied", False), MESSAGES["f_ignored"]),
        Diagnosis(_flag("backward called", False), MESSAGES["no_backward"]),
        Diagnosis(_grad_is(lambda x0, f: f(x0) + x0 * derivative(f, x0)), MESSAGES["not_cut"]),
        Diagnosis(_grad_is(lambda x0, f: x0 * derivative(f, x0)), MESSAGES["wrong_factor"]),
        Diagnosis(_grad_is(lambda x0, f: 2 * f(x0)), MESSAGES["twice"]),
        Diagnosis(_no_grad, MESSAGES["no_grad"]),
    ),
)
reproduce.case("saves-input", "cut_leaf(x0, f), f drawn from ops that save their input", x0_and(SAVE_INPUT))
reproduce.case("saves-output", "cut_leaf(x0, f), f drawn from ops that save their output", x0_and(SAVE_OUTPUT))
reproduce.case("custom-function", "cut_leaf with a custom Function", fixed(ALL_OPS["Cube"]), hidden=True,
               points=2)
reproduce.case("tanh", "cut_leaf with f = tanh", fixed(torch.tanh), hidden=True)
reproduce.case("matrix", "cut_leaf on a drawn matrix, a drawn f", x0_and(ALL_OPS, matrix=True), hidden=True,
               points=2)

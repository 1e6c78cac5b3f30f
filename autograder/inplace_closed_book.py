"""The closed-book companion of Chapter 2, "In-place operations and the version counter": the
cases of ``inplace-reproduce``.

The learner reproduces the chapter's sequence as four functions: the refused in-place write to a
leaf, a saved input made stale by a no-grad update, sigmoid's saved output made stale by a write,
and the repair. Three of them must make torch raise its own error — a hand-raised one is refused —
and the trusted drivers check that the error comes the way the task says: from the op asked for
(the ``f`` given, or ``sigmoid``), in backward, on a fresh leaf that leaves ``x0`` alone. ``f``
varies between ops that save their input, ops that save their output and a custom
``torch.autograd.Function`` (:mod:`autograder.elementwise`); ``.data`` is refused everywhere.

Defined in the closed-book companion of Chapter 2, "In-place operations and the version counter"
(notebooks/inplace-closed-book/inplace-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, Forbid, exercise
from autograder.draw import Draw
from autograder.elementwise import ALL_OPS, SAVE_INPUT, SAVE_OUTPUT, Op, Tracked, derivative, drawn_op
from autograder.engine import Raised, Raises, raised_as_data
from autograder.recorder import DATA, CallRecorder
from autograder.values import close, type_name

FUNCTIONS = ("leaf_refusal", "stale_save", "sigmoid_stale", "grad_after_repair")
ANSWER = "{\n" + "".join(f'    "{name}": {name},\n' for name in FUNCTIONS) + "}"

LEAF_ERROR = Raises("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation",
                    "torch's leaf in-place error")
VERSION_ERROR = Raises("RuntimeError", "modified by an inplace operation", "torch's version-counter error")
# Backward and autograd.grad both run the graph through this function of torch/autograd/graph.py.
BACKWARD_ENGINE = "_engine_run_backward"


# ------------------------------------------------------------------------------ drawn inputs
def x0_only(draw: Draw) -> tuple:
    return (draw.randn(draw.integer(2, 6)),)


def x0_and(ops: dict[str, Op]) -> Callable[[Draw], tuple]:
    """Inputs ``(x0, f)``: a drawn vector and an op drawn from ``ops``."""

    def recipe(draw: Draw) -> tuple:
        x0 = draw.randn(draw.integer(2, 6))
        return x0, drawn_op(draw, ops)[1]

    return recipe


# --------------------------------------------------------------------------- trusted drivers
def _through_backward(err: BaseException) -> bool:
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == BACKWARD_ENGINE:
            return True
        tb = tb.tb_next
    return False


def _kind(raised: Raised) -> str:
    for kind, expected in (("leaf", LEAF_ERROR), ("version", VERSION_ERROR)):
        if expected.matches(raised):
            return kind
    return f"{raised.type_name}: {raised.message.splitlines()[0][:80] if raised.message else ''}"


def drive_error(function: str, expected: Raises, use: Callable[..., dict[str, bool]]) -> Callable[..., Any]:
    """A driver for a function that must make torch raise ``expected``.

    It runs the function on a copy of ``x0`` (and a tracked ``f``). Torch's error, raised the way
    the task asks (``use`` reports how the answer went about it: every value must be True), goes
    on to the judge as it was raised; so does any error the answer raised by hand, which the
    judge refuses. Otherwise the driver reports what it saw as plain data.
    """

    def driver(functions: dict, x0: torch.Tensor, *op: Op) -> Any:
        given = x0.clone()
        tracked = [Tracked(f, getattr(f, "__name__", "f")) for f in op]
        recorder = CallRecorder(("sigmoid", "_set_grad_enabled", "backward"))
        try:
            with recorder:
                result = functions[function](given, *tracked)
        except Exception as err:
            raised = raised_as_data(err)
            how = {"x0 unchanged": _unchanged(given, x0), **use(tracked, recorder.calls)}
            if expected.matches(raised) and expected is VERSION_ERROR:
                how["raised in backward"] = _through_backward(err)
            if not raised.by_torch or not expected.matches(raised) or all(how.values()):
                raise
            return {"raised": _kind(raised), **how}
        return {"raised": None, "returned": type_name(result), "x0 unchanged": _unchanged(given, x0),
                **use(tracked, recorder.calls), "no_grad used": "_set_grad_enabled" in recorder.calls,
                "backward called": "backward" in recorder.calls}

    return driver


def _unchanged(given: torch.Tensor, x0: torch.Tensor) -> bool:
    return not given.requires_grad and bool(torch.equal(given, x0))


def _nothing(_tracked: list[Tracked], _calls: list[str]) -> dict[str, bool]:
    return {}


def _f_on_the_leaf(tracked: list[Tracked], _calls: list[str]) -> dict[str, bool]:
    return {"f applied to the leaf": tracked[0].applied_to_a_leaf()}


def _sigmoid_called(_tracked: list[Tracked], calls: list[str]) -> dict[str, bool]:
    return {"sigmoid called": "sigmoid" in calls}


def drive_repair(functions: dict, x0: torch.Tensor, f: Op) -> dict[str, Any]:
    """Run ``grad_after_repair`` on a copy of ``x0`` and a tracked ``f``; report what it did.

    Errors go on to the judge, whose diagnoses name them. The leaf is found from what ``f`` was
    applied to (the leaf itself, or a copy that the graph connects to it), so the report says
    whether the no-grad update happened, without trusting the answer to say so.
    """
    given = x0.clone()
    tracked = Tracked(f, getattr(f, "__name__", "f"))
    found = functions["grad_after_repair"](given, tracked)
    leaf = tracked.leaf_reached()
    if type(found) is not torch.Tensor:
        grad: Any = f"<{type_name(found)}>"
    elif found.requires_grad:
        grad = "<a tensor that requires grad>"
    else:
        grad = found.detach().clone()
    # Flags first, the gradient last: a learner reads the difference before a report is cut short.
    return {
        "f applied": bool(tracked.inputs),
        "x0 unchanged": _unchanged(given, x0),
        "leaf updated under no_grad": leaf is not None and leaf.shape == x0.shape
        and bool(torch.allclose(leaf.detach(), x0 + 1)),
        "grad": grad,
    }


def expect_repair(x0: torch.Tensor, f: Op) -> dict[str, Any]:
    return {"f applied": True, "x0 unchanged": True, "leaf updated under no_grad": True,
            "grad": derivative(f, x0)}


# ---------------------------------------------------------------------------- misconceptions
MESSAGES = {
    "x0_changed": (
        "the function must make its own fresh leaf from x0 (x = x0.clone().requires_grad_()); it changed "
        "the caller's x0 (wrote to it, or made it require grad)."
    ),
    "leaf_no_grad": (
        "torch.no_grad() is what permits an in-place update of a leaf (an optimizer step runs under it); "
        "leaf_refusal must show the refusal, so the add_(1) runs outside no_grad, on a leaf that requires grad."
    ),
    "leaf_no_requires_grad": (
        "torch refuses an in-place write only on a leaf that requires grad: make x a leaf from x0 that "
        "requires grad and write to x itself (not to a copy or a result computed from it), outside no_grad."
    ),
    "stale_no_error": (
        "stale_save must end in torch's version-counter error: y = f(x).sum() on the leaf x itself (every f "
        "here saves its input), the update x.add_(1) under torch.no_grad() after the forward, then "
        "y.backward(); no clone, no .data."
    ),
    "f_ignored": (
        "the tests vary f: build the forward with the f you are given, applied to the leaf x, not with an op "
        "you remember from the chapter."
    ),
    "not_in_backward": (
        "the version-counter error must come from backward (y.backward()), where autograd unpacks what f saved "
        "and compares the tally; reading a saved tensor yourself is not the sequence."
    ),
    "stale_leaf_error": (
        "the update of the leaf must run under torch.no_grad(): outside it torch refuses the write itself "
        "(the leaf error) before backward can discover the stale save."
    ),
    "sigmoid_no_error": (
        "sigmoid saves its OUTPUT h for backward (sigmoid' = h (1 - h)): write to h itself in place "
        "(h.mul_(2)) and then backpropagate through h; a copy, an out-of-place 2 * h or a write to x leaves "
        "the saved h intact."
    ),
    "sigmoid_missing": "sigmoid_stale is about sigmoid's saved output: compute h = x.sigmoid() and write to h.",
    "sigmoid_on_leaf": (
        "the write goes to h, the output sigmoid saved, not to the leaf x: writing to x is refused outright "
        "(the leaf error) and is not what sigmoid saved."
    ),
    "no_requires_grad": (
        "x must be a leaf that requires grad (x = x0.clone().requires_grad_()): without it nothing is recorded "
        "and backward has nothing to differentiate."
    ),
    "repair_version": (
        "f saved its input x for backward (sin, pow and a Function calling ctx.save_for_backward(x) all do), "
        "and the no-grad update raised x's version: backward refuses. Compute the forward from z = x.clone(), "
        "so the update of x leaves what f saved alone."
    ),
    "repair_leaf": (
        "the update of the leaf x runs under torch.no_grad(), as an optimizer step does; outside it autograd "
        "refuses the in-place write."
    ),
    "repair_no_update": (
        "the repaired sequence still updates the leaf: x.add_(1) under torch.no_grad(), after the forward and "
        "before backward. Skipping it (or updating the copy z) is not the repair."
    ),
    "repair_after": (
        "the gradient is f' at the value x had during the forward; yours is f' at the updated value. Clone "
        "before the forward, not after the write."
    ),
    "repair_formula": (
        "that is 2 * x0, the gradient of x ** 2 from the chapter; the tests vary f (sin, pow, exp, tanh, "
        "sigmoid, a custom Function): backpropagate through the f you are given."
    ),
    "repair_none": (
        "the gradient lands in .grad of the leaf x that the forward reached: return x.grad (z.grad of the "
        "non-leaf clone is None, and so is x.grad when the forward was cut off from x)."
    ),
    "otherwise": {
        "leaf_refusal": (
            "leaf_refusal(x0): x = x0.clone().requires_grad_(), then x.add_(1) outside no_grad: torch refuses "
            "with its leaf in-place error."
        ),
        "stale_save": (
            "stale_save(x0, f): leaf x from x0, y = f(x).sum(), x.add_(1) under torch.no_grad(), y.backward(): "
            "torch's version-counter error."
        ),
        "sigmoid_stale": (
            "sigmoid_stale(x0): leaf x from x0, h = x.sigmoid(), h.mul_(2), then backward through h: torch's "
            "version-counter error."
        ),
        "grad_after_repair": (
            "grad_after_repair(x0, f): leaf x from x0, y = f(z).sum() with z = x.clone(), x.add_(1) under "
            "torch.no_grad(), y.backward(); return x.grad, which is f' at x0."
        ),
    },
}


def _flag(name: str, value: Any) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, _inputs: tuple) -> bool:
        return type(found) is dict and name in found and found[name] == value

    return matches


def _raised_kind(kind: str) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, _inputs: tuple) -> bool:
        return isinstance(found, Raised) and _kind(found) == kind

    return matches


def _raised_containing(fragment: str) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, _inputs: tuple) -> bool:
        return isinstance(found, Raised) and fragment in found.message

    return matches


def _grad_is(model: Callable[[torch.Tensor, Op], torch.Tensor]) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, inputs: tuple) -> bool:
        grad = found.get("grad") if type(found) is dict else None
        x0, f = inputs
        wrong = model(x0, f)
        return (type(grad) is torch.Tensor and close(grad, wrong) and not close(wrong, derivative(f, x0)))

    return matches


def _none_grad(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("grad") == "<NoneType>"


NOT_REQUIRING_GRAD = Diagnosis(_raised_containing("does not require grad"), MESSAGES["no_requires_grad"],
                               on_raise=True)
X0_CHANGED = Diagnosis(_flag("x0 unchanged", False), MESSAGES["x0_changed"])
NO_DATA = Forbid(
    (DATA,),
    "the answer reads {call}: a write through .data is hidden from the version counter, so it neither "
    "reproduces torch's checks nor repairs anything. Use torch.no_grad() for the update and clone() for the "
    "repair.",
)

reproduce = exercise("inplace-reproduce", ANSWER, forbid=(NO_DATA,), answer=", ".join(FUNCTIONS))

_LEAF = {
    "call": drive_error("leaf_refusal", LEAF_ERROR, _nothing), "expect": lambda _x0: LEAF_ERROR,
    "returns": "observation", "otherwise": MESSAGES["otherwise"]["leaf_refusal"],
    "diagnoses": (X0_CHANGED, Diagnosis(_flag("no_grad used", True), MESSAGES["leaf_no_grad"]),
                  Diagnosis(_flag("raised", None), MESSAGES["leaf_no_requires_grad"])),
}
_STALE = {
    "call": drive_error("stale_save", VERSION_ERROR, _f_on_the_leaf), "expect": lambda _x0, _f: VERSION_ERROR,
    "returns": "observation", "otherwise": MESSAGES["otherwise"]["stale_save"],
    "diagnoses": (X0_CHANGED, Diagnosis(_flag("f applied to the leaf", False), MESSAGES["f_ignored"]),
                  Diagnosis(_flag("raised in backward", False), MESSAGES["not_in_backward"]),
                  Diagnosis(_raised_kind("leaf"), MESSAGES["stale_leaf_error"], on_raise=True),
                  NOT_REQUIRING_GRAD, Diagnosis(_flag("raised", None), MESSAGES["stale_no_error"])),
}
_SIGMOID = {
    "call": drive_error("sigmoid_stale", VERSION_ERROR, _sigmoid_called), "expect": lambda _x0: VERSION_ERROR,
    "returns": "observation", "otherwise": MESSAGES["otherwise"]["sigmoid_stale"],
    "diagnoses": (X0_CHANGED, Diagnosis(_flag("sigmoid called", False), MESSAGES["sigmoid_missing"]),
                  Diagnosis(_flag("raised in backward", False), MESSAGES["not_in_backward"]),
                  Diagnosis(_raised_kind("leaf"), MESSAGES["sigmoid_on_leaf"], on_raise=True),
                  NOT_REQUIRING_GRAD, Diagnosis(_flag("raised", None), MESSAGES["sigmoid_no_error"])),
}
_REPAIR = {
    "call": drive_repair, "expect": expect_repair, "returns": "observation", "agree": close,
    "otherwise": MESSAGES["otherwise"]["grad_after_repair"],
    "diagnoses": (
        Diagnosis(_raised_kind("version"), MESSAGES["repair_version"], on_raise=True),
        Diagnosis(_raised_kind("leaf"), MESSAGES["repair_leaf"], on_raise=True),
        NOT_REQUIRING_GRAD,
        Diagnosis(_grad_is(lambda x0, _f: 2 * x0), MESSAGES["repair_formula"]),
        Diagnosis(_flag("f applied", False), MESSAGES["f_ignored"]),
        X0_CHANGED,
        Diagnosis(_flag("leaf updated under no_grad", False), MESSAGES["repair_no_update"]),
        Diagnosis(_none_grad, MESSAGES["repair_none"]),
        Diagnosis(_grad_is(lambda x0, f: derivative(f, x0 + 1)), MESSAGES["repair_after"]),
    ),
}

reproduce.case("leaf-refusal", "leaf_refusal(x0) for a drawn x0", x0_only, **_LEAF)
reproduce.case("stale-save", "stale_save(x0, f), f drawn from ops that save their input",
               x0_and(SAVE_INPUT), **_STALE)
reproduce.case("sigmoid-stale", "sigmoid_stale(x0) for a drawn x0", x0_only, **_SIGMOID)
reproduce.case("repair-saves-input", "grad_after_repair(x0, f), f drawn from ops that save their input",
               x0_and(SAVE_INPUT), **_REPAIR)
reproduce.case("repair-saves-output", "grad_after_repair(x0, f), f drawn from ops that save their output",
               x0_and(SAVE_OUTPUT), **_REPAIR)
reproduce.case("leaf-refusal-hidden", "leaf_refusal on another x0", x0_only, hidden=True, **_LEAF)
reproduce.case("stale-save-sin", "stale_save with f = sin", lambda draw: (draw.randn(5), torch.sin),
               hidden=True, **_STALE)
reproduce.case("stale-save-custom", "stale_save with a custom Function", lambda draw: (draw.randn(4), ALL_OPS["Cube"]),
               hidden=True, points=2, **_STALE)
reproduce.case("sigmoid-stale-hidden", "sigmoid_stale on another x0", x0_only, hidden=True, **_SIGMOID)
reproduce.case("repair-custom", "grad_after_repair with a custom Function",
               lambda draw: (draw.randn(6), ALL_OPS["Cube"]), hidden=True, points=2, **_REPAIR)
reproduce.case("repair-sin", "grad_after_repair with f = sin", lambda draw: (draw.randn(3), torch.sin),
               hidden=True, **_REPAIR)
reproduce.case("repair-drawn", "grad_after_repair with a drawn f", x0_and(ALL_OPS), hidden=True, points=2,
               **_REPAIR)

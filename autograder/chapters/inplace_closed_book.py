"""The closed-book companion of Chapter 2, "In-place operations and the version counter": how
``inplace-reproduce`` is checked.

The learner reproduces the chapter's sequence as four functions. The drivers report only what
torch's mechanism left behind (:mod:`autograder.engine.witness`), never whether it is right; each
report of an error begins with whether a ``raise`` statement of the answer's own raised it (an
error written by hand, whatever its words):

* ``leaf_refusal``: the error it let through, and the tensor of the torch call that raised that
  very exception object (a leaf that requires grad, holding ``x0``'s values);
* ``stale_save``: what ``f`` (grader-owned, recording what it is applied to) was applied to,
  whether backward reached the node ``f`` made, and what torch says when the grader reads that
  node's saved tensors after the call;
* ``sigmoid_stale``: the same for the sigmoid node the answer made, found by a witness of its torch
  calls (switching the witness off leaves no evidence);
* ``grad_after_repair``: the leaf behind ``f``'s input after the call, how far the update moved that
  leaf's version counter before backward reached ``f``'s node, and in all (a write through ``.data``
  does not move it), and the gradient returned.

The keys hold what the reference's run reports. Every function's form is checked visibly on one
example, for no points; every behavioural check is hidden.

Defined in the closed-book companion of Chapter 2, "In-place operations and the version counter"
(notebooks/inplace-closed-book/inplace-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.engine import facts
from autograder.engine.cases import exercise
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw
from autograder.engine.elementwise import CUSTOM, SAVE_INPUT, SAVE_OUTPUT
from autograder.engine.reduction import raised_by_its_own_statement
from autograder.engine.witness import Kept, Recorded, Witness, describe, error_of, holds_values, left_alone, read_saved

FUNCTIONS = ("leaf_refusal", "stale_save", "sigmoid_stale", "grad_after_repair")
ANSWER = "{\n" + "".join(f'    "{name}": {name},\n' for name in FUNCTIONS) + "}"
OPS = {**SAVE_INPUT, **SAVE_OUTPUT, **CUSTOM}


# ------------------------------------------------------------------------------ drawn inputs
def x0_only(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 6)),)


def x0_and(names: list[str]) -> Callable[[Draw], tuple]:
    """Inputs ``(x0, f)``: a drawn vector and the name of an op drawn from ``names`` (the driver
    hands the answer that op, grader-owned)."""

    def recipe(draw: Draw) -> tuple:
        x0 = draw.randn(draw.sized(2, 6))
        return x0, draw.choice(sorted(names))

    return recipe


def show(inputs: tuple) -> str:
    x0, *named = inputs
    return f"x0 of shape {tuple(x0.shape)}" + (f", f = {named[0]}" if named else "")


# ---------------------------------------------------------------------------------- drivers
def _call(function: Callable[..., Any], *args: Any) -> tuple[Any, BaseException | None]:
    try:
        return function(*args), None
    except NotImplementedError:
        raise
    except Exception as err:  # noqa: BLE001 - the error is what is reported
        return None, err


def report_leaf(function: Callable[..., Any], x0: torch.Tensor) -> dict[str, Any]:
    """Run ``leaf_refusal(x0)`` inside a witness of its torch calls; report the error it let
    through and the tensor of the torch call that raised that very exception (read through
    :mod:`autograder.engine.facts`, as every fact the drivers below report)."""
    kept = Kept(x0)
    witness = Witness()
    with witness:
        _result, err = _call(function, x0)
    on = witness.raised_on(err) if err is not None else None
    with facts.untouched():
        same_shape = facts.is_tensor(on) and facts.shape(on) == facts.shape(kept.values)
    return {
        "raised by a raise statement written in the answer": raised_by_its_own_statement(function, err),
        "raised": error_of(err) if err is not None else None,
        "torch raised it in a call on": describe(on) if err is not None and on is not None else None,
        "that tensor held x0": holds_values(on, kept.values) if same_shape else None,
        "x0 left alone": left_alone(x0, kept),
    }


def report_stale(function: Callable[..., Any], x0: torch.Tensor, name: str) -> dict[str, Any]:
    """Run ``stale_save(x0, f)`` with a grader-owned ``f``; report what ``f`` was applied to,
    whether backward reached its node, and what reading its saved tensors gives afterwards."""
    kept = Kept(x0)
    f = Recorded(OPS[name], name)
    applied = f.applied  # the driver's own list: the answer may rebind f's attribute, not this
    _result, err = _call(function, x0, f)
    first = applied[0] if applied else None
    return {
        "raised by a raise statement written in the answer": raised_by_its_own_statement(function, err),
        "raised": error_of(err) if err is not None else None,
        "f applied to": describe(first.input) if first else "f not applied",
        "f's input held x0": first.holds(kept.values) if first else None,
        "backward reached f's node": first.reached if first else None,
        "f's saved tensors, read after the call": read_saved(first.node) if first else None,
        "x0 left alone": left_alone(x0, kept),
    }


def report_sigmoid(function: Callable[..., Any], x0: torch.Tensor) -> dict[str, Any]:
    """Run ``sigmoid_stale(x0)`` inside a witness that keeps every sigmoid node the answer makes;
    report what the first was applied to, whether backward reached it, and what reading its saved
    result gives afterwards."""
    kept = Kept(x0)
    witness = Witness("SigmoidBackward0")
    applied = witness.applied
    with witness:
        _result, err = _call(function, x0)
    first = applied[0] if applied else None
    return {
        "raised by a raise statement written in the answer": raised_by_its_own_statement(function, err),
        "raised": error_of(err) if err is not None else None,
        "sigmoid applied to": describe(first.input) if first else "no sigmoid seen",
        "sigmoid's input held x0": first.holds(kept.values) if first else None,
        "backward reached sigmoid's node": first.reached if first else None,
        "sigmoid's saved result, read after the call": read_saved(first.node) if first else None,
        "x0 left alone": left_alone(x0, kept),
    }


class _Timed(Recorded):
    """``f`` as :class:`Recorded`, also noting the version of the leaf behind each input at the
    moment backward reaches the node that application made."""

    def __call__(self, t: torch.Tensor) -> torch.Tensor:
        result = super().__call__(t)
        applied = self.applied[-1]
        applied.leaf_version_at_backward = None
        if applied.node is not None and applied.leaf is not None:
            def _note(_grad_outputs: Any, applied: Any = applied) -> None:
                if applied.leaf_version_at_backward is None:
                    with facts.untouched():
                        applied.leaf_version_at_backward = facts.version(applied.leaf)
            applied.node.register_prehook(_note)
        return result


def report_repair(function: Callable[..., Any], x0: torch.Tensor, name: str) -> dict[str, Any]:
    """Run ``grad_after_repair(x0, f)`` with a grader-owned ``f``; errors propagate. Report the
    leaf behind ``f``'s input after the call, how far that leaf's version counter moved between
    ``f`` and backward reaching ``f``'s node, and after ``f`` in all, and what the function
    returned. (What ``f`` was applied to is left out: the entries a message shows would spell
    the repair; applying ``f`` to the leaf itself shows as backward's error.)"""
    kept = Kept(x0)
    f = _Timed(OPS[name], name)
    applied = f.applied
    found = function(x0, f)
    first = applied[0] if applied else None
    leaf = first.leaf if first else None
    at_backward = getattr(first, "leaf_version_at_backward", None) if first else None
    with facts.untouched():
        if not facts.is_tensor(found):
            returned: Any = f"<{type_name(found)}>"
        elif facts.requires_grad(found):
            returned = "<a tensor that requires grad>"
        else:
            returned = facts.clone(facts.detach(found))
        # Facts first, the gradient last: a message shows the entries that differ.
        return {
            "f applied": first is not None,
            "x0 left alone": left_alone(x0, kept),
            "leaf behind f's input, after the call": facts.clone(facts.detach(leaf)) if leaf is not None else None,
            "its version moved between f and backward by": at_backward - first.leaf_version
            if at_backward is not None else None,
            "its version moved after f by": facts.version(leaf) - first.leaf_version if leaf is not None else None,
            "returned": returned,
        }


reproduce = exercise("inplace-reproduce", ANSWER, returns="observation", agree="close", show=show)

FORMS = {
    "leaf_refusal": ("leaf_refusal(x0)", x0_only, "raises"),
    "stale_save": ("stale_save(x0, f)", lambda draw: (draw.randn(4), torch.sin), "raises"),
    "sigmoid_stale": ("sigmoid_stale(x0)", x0_only, "raises"),
    "grad_after_repair": ("grad_after_repair(x0, f)", lambda draw: (draw.randn(4), torch.sin), "tensor"),
}
for _function, (_probe, _recipe, _kind) in FORMS.items():
    reproduce.case(f"{_function}-form", _probe, _recipe, subject=_function, form=_kind, points=0, returns=None,
                   show=lambda inputs: f"x0 of shape {tuple(inputs[0].shape)}")

DRIVERS = {"leaf_refusal": report_leaf, "stale_save": report_stale, "sigmoid_stale": report_sigmoid,
           "grad_after_repair": report_repair}
CASES: dict[str, tuple[str, str, Callable[[Draw], tuple], int]] = {
    # name: (function, what it draws, recipe (also the search's), points)
    "leaf-refusal": ("leaf_refusal", "a drawn x0", x0_only, 1),
    "leaf-refusal-again": ("leaf_refusal", "another drawn x0", x0_only, 1),
    "stale-save": ("stale_save", "f drawn from ops that save their input", x0_and(list(SAVE_INPUT)), 1),
    "stale-save-sin": ("stale_save", "f = sin", x0_and(["sin"]), 1),
    "stale-save-custom": ("stale_save", "f a custom autograd Function", x0_and(["Cube"]), 2),
    "sigmoid-stale": ("sigmoid_stale", "a drawn x0", x0_only, 1),
    "sigmoid-stale-again": ("sigmoid_stale", "another drawn x0", x0_only, 1),
    # An op that saves its output gives the right gradient with or without the repair (the update
    # leaves what it saved alone): each family draws ops of one kind only, so an answer that
    # skips the repair loses the same checks on every run.
    "repair-saves-input": ("grad_after_repair", "f drawn from ops that save their input", x0_and(list(SAVE_INPUT)), 2),
    "repair-saves-output": ("grad_after_repair", "f drawn from ops that save their output",
                            x0_and(list(SAVE_OUTPUT)), 1),
    "repair-sin": ("grad_after_repair", "f = sin", x0_and(["sin"]), 1),
    "repair-custom": ("grad_after_repair", "f a custom autograd Function that saves its input", x0_and(["Cube"]), 2),
    "repair-custom-output": ("grad_after_repair", "f a custom autograd Function that saves its output",
                             x0_and(["SoftClip"]), 1),
}
for _name, (_function, _what, _recipe, _points) in CASES.items():
    reproduce.case(_name, f"{FORMS[_function][0]}, {_what}", _recipe, subject=_function, hidden=True,
                   points=_points, call=DRIVERS[_function], search=_recipe, tries=3)

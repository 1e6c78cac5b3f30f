"""The closed-book companion of Chapter 3, "detach versus clone": how ``detach-reproduce`` is
checked.

``cut_leaf(x0, f)`` is handed a grader-owned ``f`` that records what it is applied to, and runs
inside a witness of its torch calls. The driver reports only what the mechanism left behind:
whether ``f`` read ``x0``'s values (applied to the leaf, to a detached alias of it or to a copy:
``u`` reads ``f``'s values at ``x`` whichever it was), what the returned tensor is and whether
autograd ran on a graph that reaches it, whether backward reached the node ``f`` made (a cut keeps
it away; ``f`` applied to a tensor that needs no grad makes none), whether a tensor autograd saved
during the call is an alias of ``f``'s result with a version counter of its own (``detach()``
shares the counter, ``.data`` does not: the driver writes to ``f``'s result and looks; saved
tensors are seen through ``torch.autograd.graph.saved_tensors_hooks``, and an answer that switches
them off leaves none), whether ``x0`` was left as it was given (a plain tensor, a leaf that
requires grad, or a non-leaf), and the gradient on the returned tensor. The visible check looks
at the form only; every behavioural check is hidden.

Defined in the closed-book companion of Chapter 3
(notebooks/detach-closed-book/detach-closed-book.ipynb).
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
from autograder.engine.witness import Kept, Recorded, Witness, describe, leaves_of, left_alone

OPS = {**SAVE_INPUT, **SAVE_OUTPUT, **CUSTOM}


def x0_and(names: list[str], matrix: bool = False, kind: str = "plain") -> Callable[[Draw], tuple]:
    """Inputs ``(x0, f)``: a drawn vector (or matrix) and the name of an op drawn from ``names``
    (the driver hands the answer that op, grader-owned). ``x0`` is a plain tensor, or (``kind``)
    a ``"leaf"`` that requires grad, or a ``"non-leaf"`` computed from one."""

    def recipe(draw: Draw) -> tuple:
        shape = (draw.sized(2, 3), draw.sized(2, 4)) if matrix else (draw.sized(2, 6),)
        x0 = draw.randn(*shape)
        if kind == "leaf":
            x0.requires_grad_()
        elif kind == "non-leaf":
            x0 = x0.requires_grad_() + 1  # add saves nothing: backward may pass through it again
        return x0, draw.choice(sorted(names))

    return recipe


def show(inputs: tuple) -> str:
    x0, name = inputs
    kind = "" if not x0.requires_grad else " (a leaf that requires grad)" if x0.is_leaf else " (a non-leaf)"
    return f"x0 of shape {tuple(x0.shape)}{kind}, f = {name}"


def report_cut(answer: Callable[..., Any], x0: torch.Tensor, name: str) -> dict[str, Any]:
    """Run ``cut_leaf(x0, f)`` with a grader-owned ``f`` inside a witness; errors propagate.
    Every fact is read through :mod:`autograder.engine.facts`."""
    kept = Kept(x0)
    f = Recorded(OPS[name], name)
    applied = f.applied  # the driver's own list: the answer may rebind f's attribute, not this
    witness, saved = Witness(), []

    def pack(t: torch.Tensor) -> torch.Tensor:
        saved.append(t)
        return t

    with witness, facts.saved_tensors_hooks(pack, lambda t: t):
        returned = answer(x0, f)
    first = applied[0] if applied else None
    if first is None:
        return {"f applied to": "f not applied", "x0 left alone": left_alone(x0, kept)}
    with facts.untouched():
        at = facts.data_ptr(first.result)
        aliases = [t for t in saved if t is not first.result and facts.data_ptr(t) == at]
        versions = [facts.version(alias) for alias in aliases]
        if aliases:  # none when f ran under inference_mode, whose result autograd never saves
            with facts.no_grad():
                facts.add_(first.result, 0)  # a write to f's result: which of its aliases see it?
        own_counter = any(facts.version(alias) == before for alias, before in zip(aliases, versions, strict=True))
        if not facts.is_tensor(returned):
            grad: Any = f"<{type_name(returned)} returned>"
        else:
            held = facts.grad(returned) if facts.is_leaf(returned) else None
            grad = facts.clone(facts.detach(held)) if held is not None else "<no .grad>"
    # Facts first, the gradient last: a message shows the entries that differ.
    return {
        "f's input held x0": first.holds(kept.values),
        "returned": describe(returned),
        "autograd ran on a graph that reaches it": any(
            leaf is returned for root in witness.autograd_roots() for leaf in leaves_of(root)),
        "backward reached f's node": first.reached,
        "autograd saved tensors during the call": bool(saved),
        "an alias of f's result was saved with a counter of its own": own_counter,
        "x0 left alone": left_alone(x0, kept),
        "grad of what it returned": grad,
    }


reproduce = exercise("detach-reproduce", "cut_leaf", returns="observation", agree="close", show=show)
reproduce.case("form", "cut_leaf(x0, f)", lambda draw: (draw.randn(4), torch.sin), form="tensor", points=0,
               show=lambda inputs: f"x0 of shape {tuple(inputs[0].shape)}, f = sin")

CASES: dict[str, tuple[str, Callable[[Draw], tuple], int]] = {
    # name: (what the case draws, recipe (also the search's), points)
    "saves-input": ("f drawn from ops that save their input", x0_and(list(SAVE_INPUT)), 1),
    "saves-output": ("f drawn from ops that save their output", x0_and(list(SAVE_OUTPUT)), 1),
    "custom-function": ("f a custom autograd Function", x0_and(list(CUSTOM)), 2),
    "tanh": ("f = tanh", x0_and(["tanh"]), 1),
    "matrix": ("a drawn matrix x0 and a drawn f", x0_and(list(OPS), matrix=True), 2),
    "x0-requires-grad": ("x0 a leaf that requires grad, a drawn f", x0_and(list(OPS), kind="leaf"), 1),
    "x0-non-leaf": ("x0 = w + 1, a non-leaf, a drawn f", x0_and(list(OPS), kind="non-leaf"), 1),
}
for _name, (_what, _recipe, _points) in CASES.items():
    reproduce.case(_name, f"cut_leaf(x0, f), {_what}", _recipe, hidden=True, points=_points, call=report_cut,
                   search=_recipe, tries=3)

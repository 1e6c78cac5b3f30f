"""The closed-book companion of Chapter 4, "Leaves, ``.grad`` and accumulation": how
``leaves-reproduce`` is checked.

``two_objectives(w0, f, g)`` reproduces accumulation on purpose: a leaf ``w`` from ``w0``,
``backward`` of ``f(w).sum()``, then of ``g(w).sum()`` without zeroing, then zeroing and
``backward`` of ``g(w).sum()`` again, returning a copy of ``w.grad`` after each. The ``f`` and ``g``
handed to the answer are the grader's: each notes the tensor it is applied to, and on a leaf that
requires grad the grader listens to autograd itself — the gradient that arrives at the leaf, and
``.grad`` after ``AccumulateGrad`` has written it — so the report says whether one leaf's ``.grad``
accumulated, not only which numbers came back. The visible check looks only at the form of the
result; every check of behaviour is hidden, on ``w0``, ``f`` and ``g`` drawn per run from ops that
save their input, ops that save their output and custom ``torch.autograd.Function`` s, and on a
``w0`` that is already a leaf that requires grad, or the result of an operation on one.

Defined in the closed-book companion of Chapter 4 (notebooks/leaves-closed-book/leaves-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.chapters.leaves import accumulation_witness
from autograder.engine import facts
from autograder.engine.cases import exercise
from autograder.engine.draw import Draw
from autograder.engine.elementwise import CUSTOM, SAVE_INPUT, SAVE_OUTPUT, Op
from autograder.engine.values import KINDS

#: The operations ``f`` and ``g`` are drawn from, by name.
OPS: dict[str, Op] = {**SAVE_INPUT, **SAVE_OUTPUT, **CUSTOM}

KINDS["three-tensors"] = (
    lambda v: type(v) is tuple and len(v) == 3 and all(KINDS["tensor"][0](t) for t in v),
    "a tuple of three tensors",
)


class Applied:
    """``f`` (or ``g``) as handed to the answer: it applies the grader's op and notes the tensor."""

    def __init__(self, label: str, name: str, note: Callable[[Any], None]) -> None:
        self._label, self._name, self._note = label, name, note

    def __call__(self, t: torch.Tensor) -> torch.Tensor:
        self._note(t)
        return OPS[self._name](t)

    def __repr__(self) -> str:
        return f"<the grader's {self._label}>"


def returned(answer: Callable, w0: torch.Tensor, f: str, g: str) -> Any:
    """What the answer returns for a copy of ``w0`` and the grader's ``f`` and ``g`` (for the form)."""
    with facts.untouched():
        given = facts.clone(w0)
    return answer(given, Applied("f", f, lambda _t: None), Applied("g", g, lambda _t: None))


#: What ``w0`` may be besides a plain tensor: the task allows any tensor.
LEAF, RESULT = "a leaf that requires grad", "the result of an operation on a leaf"


def _given(w0: torch.Tensor, how: str | None) -> torch.Tensor:
    """A grader-owned ``w0`` with the values drawn: a plain tensor, a leaf that requires grad, or the
    result of an operation (a clone) on such a leaf."""
    with facts.untouched():
        if how is None:
            return facts.clone(w0)
        leaf = facts.requires_grad_(facts.clone(w0))
        return leaf if how == LEAF else facts.clone(leaf)


def drive(answer: Callable, w0: torch.Tensor, f: str, g: str, how: str | None = None) -> dict[str, Any]:
    """Call ``two_objectives`` on a grader-owned ``w0`` (see :func:`_given`) and the grader's ``f`` and
    ``g``; report what came back, what autograd did to the tensors ``f`` and ``g`` were applied to, and
    whether ``w0`` kept its values, ``requires_grad``, place in a graph and its empty ``.grad`` (every
    tensor read, and every hook set, through :mod:`autograder.engine.facts`)."""
    given = _given(w0, how)
    with facts.untouched():
        kept = (facts.requires_grad(given), facts.is_leaf(given))
    applied: list[Any] = []
    arrivals: list[torch.Tensor] = []
    after: list[torch.Tensor] = []
    handles = []

    def arrive(grad: torch.Tensor) -> None:
        with facts.untouched():
            node = facts.current_node()
            if facts.is_torch_node(node) and type(node).__name__ == "AccumulateGrad":
                arrivals.append(facts.clone(facts.detach(grad)))

    def note(t: Any) -> None:
        if any(t is seen for seen in applied):
            return
        applied.append(t)
        with facts.untouched():
            if isinstance(t, torch.Tensor) and facts.is_leaf(t) and facts.requires_grad(t):
                handles.append(facts.register_hook(t, arrive))
                handles.append(accumulation_witness(
                    t, lambda leaf: after.append(facts.clone(facts.detach(facts.grad(leaf))))))

    found = answer(given, Applied("f", f, note), Applied("g", g, note))
    for handle in handles:
        handle.remove()
    with facts.untouched():
        if type(found) is tuple and len(found) == 3 and all(facts.is_tensor(t) for t in found):
            records: Any = [facts.clone(facts.detach(t)) for t in found]
        else:
            records = f"a {type(found).__name__}" + (f" of {len(found)}" if type(found) in (tuple, list) else "")
        return {
            "tensors f and g were applied to": len(applied),
            "each a leaf that requires grad": all(isinstance(t, torch.Tensor) and facts.is_leaf(t)
                                                  and facts.requires_grad(t) for t in applied),
            "w0 left alone": bool(facts.equal(facts.detach(given), w0))
            and (facts.requires_grad(given), facts.is_leaf(given)) == kept
            and (facts.grad(given) is None if facts.is_leaf(given) else not facts.retains_grad(given)),
            "accumulations into .grad": len(after),
            "records": records,
            "gradients arriving at the leaf": arrivals,
            ".grad after each accumulation": after,
            ".grad at the end": [facts.clone(facts.detach(grad)) if isinstance(t, torch.Tensor)
                                 and (grad := facts.grad(t)) is not None else None for t in applied],
        }


def pair(first: tuple[str, ...], second: tuple[str, ...], dims: tuple[int, int] = (1, 2),
         how: str | None = None) -> Callable[[Draw], tuple]:
    """Inputs ``(w0, f, g)``: a drawn ``w0`` and two different ops, ``f`` from ``first``, ``g`` from
    ``second``; with ``how``, ``(w0, f, g, how)``: the driver hands ``w0`` over as ``how`` says."""

    def recipe(draw: Draw) -> tuple:
        f = draw.choice(first)
        g = draw.choice([name for name in second if name != f])
        w0 = draw.randn(*draw.shape(draw.sized(*dims), high=4)) if dims[1] > 0 else draw.randn(())
        return (w0, f, g) if how is None else (w0, f, g, how)

    return recipe


def _show(inputs: tuple) -> str:
    w0, f, g, *how = inputs
    return f"w0 of shape {tuple(w0.shape)}{''.join(f' ({h})' for h in how)}, f = {f}, g = {g}"


SAVES_INPUT, SAVES_OUTPUT, CUSTOMS = tuple(SAVE_INPUT), tuple(SAVE_OUTPUT), tuple(CUSTOM)

two_objectives = exercise("leaves-reproduce", "two_objectives", show=_show)
two_objectives.case("form", "two_objectives(w0, f, g)", pair(("sin",), ("exp",)), call=returned,
                    form="three-tensors", points=0)
CASES: dict[str, tuple[str, Callable[[Draw], tuple], int]] = {
    # name: (probe, recipe (also the search's), points)
    "input-then-output": ("two_objectives(w0, f, g)",
                          pair(SAVES_INPUT, SAVES_OUTPUT), 2),
    "output-then-input": ("two_objectives(w0, f, g)",
                          pair(SAVES_OUTPUT, SAVES_INPUT), 2),
    "custom-functions": ("two_objectives(w0, f, g)", pair(CUSTOMS, CUSTOMS), 2),
    "any-pair": ("two_objectives(w0, f, g)", pair(tuple(OPS), tuple(OPS), (1, 3)), 2),
    "scalar": ("two_objectives(w0, f, g)", pair(tuple(OPS), tuple(OPS), (0, 0)), 2),
    # The task allows any tensor as w0: one already a leaf that requires grad, or one in a graph.
    "w0-requires-grad": ("two_objectives(w0, f, g)", pair(tuple(OPS), tuple(OPS), how=LEAF), 1),
    "w0-not-a-leaf": ("two_objectives(w0, f, g)", pair(tuple(OPS), tuple(OPS), how=RESULT), 1),
}
for _name, (_probe, _recipe, _points) in CASES.items():
    two_objectives.case(_name, _probe, _recipe, call=drive, returns="observation", agree="loose", hidden=True,
                        points=_points, search=_recipe, tries=3)

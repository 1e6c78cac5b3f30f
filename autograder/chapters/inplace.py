"""Chapter 2, "In-place operations and the version counter": how its exercises are checked.

The keys (what each answer should give) are in ``answer_key.inplace``; this module only draws the
inputs and calls the answers. The repairs are called on a fresh leaf by :func:`backward_report`,
which reports what autograd did with the answer's result: its value, what ``backward()`` raised,
and the gradient it left on the leaf.

Defined in Chapter 2, "In-place operations and the version counter" (notebooks/inplace/inplace.ipynb).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import torch

from autograder.engine import facts
from autograder.engine.cases import Exercise, exercise, require_dict, selftest
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw

SAVES_VALUES = ("input", "output", "nothing")

# --------------------------------------------------------------------------- inplace-saves
#: Each key of SAVES and the expression it asks about (over a non-leaf ``a``). No cell of the
#: chapter says what these ops save.
SAVES_EXPRESSIONS: dict[str, str] = {
    "softplus": "torch.nn.functional.softplus(a)",
    "sqrt": "a.sqrt()",
    "softmax": "a.softmax(0)",
    "cosh": "a.cosh()",
    "cumsum": "a.cumsum(0)",
    "erf": "a.erf()",
    "relu6": "torch.nn.functional.relu6(a)",
    "softmin": "torch.nn.functional.softmin(a, 0)",
    "atan": "a.atan()",
    "flip": "a.flip(0)",
}

#: What an op may save, as the tasks name it.
SAVED = ("input", "output", "nothing")
saves = exercise("inplace-saves", "SAVES", require=require_dict("SAVES", list(SAVES_EXPRESSIONS)), returns="str",
                 allowed=SAVED)
for _key, _text in SAVES_EXPRESSIONS.items():
    saves.entry(_key, f"SAVES[{_key!r}] ({_text})")

# --------------------------------------------------------------------------- inplace-saves-more
#: The same question for more ops; no cell of the chapter says what they save.
SAVES_MORE_EXPRESSIONS: dict[str, str] = {
    "rsqrt": "a.rsqrt()",
    "tan": "a.tan()",
    "expm1": "a.expm1()",
    "log1p": "a.log1p()",
    "abs": "a.abs()",
    "leaky_relu": "torch.nn.functional.leaky_relu(a, 0.1)",
    "neg": "-a",
    "exp2": "a.exp2()",
    "log_softmax": "a.log_softmax(0)",
    "sinh": "a.sinh()",
    "silu": "torch.nn.functional.silu(a)",
    "sub_const": "a - 2",
}

saves_more = exercise("inplace-saves-more", "SAVES_MORE",
                      require=require_dict("SAVES_MORE", list(SAVES_MORE_EXPRESSIONS)), returns="str",
                      allowed=SAVED)
for _key, _text in SAVES_MORE_EXPRESSIONS.items():
    saves_more.entry(_key, f"SAVES_MORE[{_key!r}] ({_text})")


# --------------------------------------------------------------------------- the repairs
def backward_report(answer: Callable[[torch.Tensor], Any], x0: torch.Tensor) -> dict[str, Any]:
    """Call a repaired function on a fresh leaf made from ``x0``, backpropagate from its result,
    and report what happened: the value it returned, what ``backward()`` raised (the first line
    of torch's message) and the gradient it left on the leaf. The result is read, and backward
    run, through :mod:`autograder.engine.facts`: not through methods the answer could have set on
    it or on torch."""
    with facts.untouched():
        x = facts.requires_grad_(facts.clone(x0), True)
    out = answer(x)
    if not facts.is_tensor(out):
        return {"value": f"<{type_name(out)}>", "backward": None, "grad": None}
    with facts.untouched():
        value = facts.clone(facts.detach(out))
        try:
            facts.backward(out)
        except RuntimeError as err:
            return {"value": value, "backward": _first_sentence(str(err)), "grad": None}
        grad = facts.grad(x)
        return {"value": value, "backward": None, "grad": None if grad is None else facts.clone(grad)}


#: The version counts in torch's message: how many writes came before depends on how an answer
#: spells what it keeps in place, not on what it got wrong.
_VERSIONS = re.compile(r", is at version \d+; expected version \d+ instead")


def _first_sentence(text: str) -> str:
    """Torch's message up to its hint (which says nothing about the input), without the version
    counts: which saved tensor was written, and by whom it was made, is what a report compares."""
    return _VERSIONS.sub(", is at a later version than it was saved at", text.split(" Hint:")[0].strip())[:300]


def _vector(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 7)),)


def _matrix(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 4), draw.sized(2, 3)),)


def _large(draw: Draw) -> tuple:
    return (3 * draw.randn(draw.sized(2, 9)),)


def _single(draw: Draw) -> tuple:
    return (draw.randn(1),)


def _large_matrix(draw: Draw) -> tuple:
    return (3 * draw.randn(draw.sized(2, 5), draw.sized(2, 5)),)


def _single_row(draw: Draw) -> tuple:
    return (draw.randn(1, draw.sized(2, 5)),)


#: A repair's families of inputs: name: (what the case draws, recipe (also the search's), hidden,
#: anchors). On a degenerate shape (one element, one row, one column) a fragment may reduce to
#: something simpler, which an answer wrong everywhere else gets right: such a family's check also
#: runs on a drawn tensor of the general shape it degenerates from (its anchor), and passes only
#: when the answer is right on both.
RepairCases = dict[str, tuple[str, Callable[[Draw], tuple], bool, tuple[Callable[[Draw], tuple], ...]]]

REPAIR_CASES: RepairCases = {
    "vector": ("a drawn vector x", _vector, False, ()),
    "matrix": ("a drawn matrix x", _matrix, False, ()),
    "large": ("a vector x of large values", _large, True, ()),
    "single": ("a vector x of one element", _single, True, (_vector,)),
}

#: Points of each check of a repair: repairing is the chapter's skill, so a family of inputs a
#: repair gets right weighs twice an entry of a SAVES table.
REPAIR_POINTS = 2


def repair(grade_id: str, name: str, cases: RepairCases) -> Exercise:
    """A repair exercise: ``name(x)`` called on a fresh leaf and backpropagated from, one check of
    :data:`REPAIR_POINTS` per family of ``cases``."""
    repaired = exercise(grade_id, name, call=backward_report, returns="observation", agree="close")
    for case, (what, recipe, hidden, anchors) in cases.items():
        repaired.case(case, f"{name}(x) then backward ({what})", recipe, hidden=hidden, points=REPAIR_POINTS,
                      search=recipe, tries=4, anchors=anchors)
    return repaired


# ----------------------------------------------------------------------------- inplace-fix-gate
gate = repair("inplace-fix-gate", "fixed_gate", REPAIR_CASES)

# ---------------------------------------------------------------------------- inplace-fix-alias
#: The shift is along the first dimension (``h[1:]``: every row of a matrix but the first), so the
#: hidden checks draw matrices too: an answer that shifts elements or columns instead loses them.
ALIAS_CASES = {
    **REPAIR_CASES,
    "large-matrix": ("a matrix x of large values", _large_matrix, True, ()),
    "single-row": ("a matrix x of one row", _single_row, True, (_matrix,)),
}
alias = repair("inplace-fix-alias", "fixed_energy", ALIAS_CASES)

# ---------------------------------------------------------------------------- inplace-fix-share
def _single_column(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 5), 1),)


def _batch(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 3), draw.sized(2, 3), draw.sized(2, 4)),)


#: The softmax runs along the last dimension and ``first`` is its first entry there (``h[..., :1]``):
#: a tensor of one element, a column (one entry per row, each its own softmax's only one) and a
#: tensor of three dimensions each have a check.
SHARE_CASES: RepairCases = {
    "vector": ("a drawn vector x", _vector, False, ()),
    "matrix": ("a drawn matrix x", _matrix, False, ()),
    "single": ("a vector x of one element", _single, True, (_vector,)),
    "single-column": ("a matrix x of one column", _single_column, True, (_matrix,)),
    "three-dimensions": ("a drawn tensor x of three dimensions", _batch, True, ()),
}
share = repair("inplace-fix-share", "fixed_share", SHARE_CASES)

# ------------------------------------------------------------------------- inplace-fix-residual
def _both_signs(recipe: Callable[[Draw], tuple], scale: float = 1.0) -> Callable[[Draw], tuple]:
    """``recipe``'s tensor scaled, with its first element made positive and its last negative:
    ``2 * sigmoid(x) - 1`` has the sign of ``x``, so the ReLU passes some elements and stops others
    on every draw (a gradient wrong only where the ReLU passes shows on every run)."""

    def drawn(draw: Draw) -> tuple:
        (x,) = recipe(draw)
        flat = (scale * x).flatten()
        flat[0], flat[-1] = flat[0].abs() + 0.1, -flat[-1].abs() - 0.1
        return (flat.view(x.shape),)

    return drawn


#: Every operation of the block is elementwise: the shape only changes which layout the repair
#: meets. Small values sit near the ReLU's kink, large ones where the sigmoid saturates.
RESIDUAL_CASES: RepairCases = {
    "vector": ("a drawn vector x, of both signs", _both_signs(_vector), False, ()),
    "matrix": ("a drawn matrix x, of both signs", _both_signs(_matrix), False, ()),
    "around-zero": ("a vector x of small values, of both signs", _both_signs(_vector, 0.3), True, ()),
    "wide": ("a vector x of a wide spread (three times a normal draw), of both signs", _both_signs(_vector, 3.0),
             True, ()),
    "three-dimensions": ("a drawn tensor x of three dimensions, of both signs", _both_signs(_batch), True, ()),
}
residual = repair("inplace-fix-residual", "fixed_residual", RESIDUAL_CASES)

# --------------------------------------------------------------------------- inplace-selftest
SELFTEST_QUESTIONS = {
    "q1": ("a = torch.zeros(4); v = a.view(2, 2); v[0].add_(1); v[1].add_(1); d = a.detach(); d.mul_(2); "
           "d[0] = 5; d.sub_(1); torch.sin(a, out=a): what is a._version?", "int"),
    "q2": ("a = torch.zeros(3); b = a.clone(); b.add_(1); a += b; a.copy_(b): what is b._version?", "int"),
    "q3": ("x, a leaf that requires grad; y = x.exp(); z = y * 3; under torch.no_grad(): z.add_(1); "
           "does z.sum().backward() succeed?", "bool"),
    "q4": ("x = torch.ones(4, requires_grad=True); y = x * 1; y.data.add_(1); y.detach()[0] = 5; y.add_(1): "
           "what is y._version?", "int"),
    "q5": ("a, a non-leaf; y = (a * a.detach()).sum(); under torch.no_grad(): a.add_(1); "
           "does y.backward() succeed?", "bool"),
}
selftest("inplace-selftest", SELFTEST_QUESTIONS)

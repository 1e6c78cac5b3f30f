"""Chapter 3, "detach versus clone": how its exercises are checked.

The keys (what each answer should give) are in ``answer_key.detach``; this module only draws the
inputs and calls the answers. The answers return tensors whose worth lies in what they share with
their source — memory, the version counter, the graph — so each driver reports what it found by
acting on the result: a write through it, a backward from it, the state of the input afterwards.

Defined in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.engine import facts
from autograder.engine.cases import exercise, selftest
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw
from autograder.engine.values import brief
from autograder.engine.witness import (
    Kept,
    Witness,
    copied,
    first_sentence,
    hold_values_between_them,
    leaves_of,
    left_alone,
)


# --------------------------------------------------------------------------- detach-independent
def report_copy(answer: Callable[[torch.Tensor], Any], t: torch.Tensor) -> dict[str, Any]:
    """Call ``independent_copy(t)``, then write through what it returned; report what the copy is
    and what the write did to ``t`` (which is then put back as it was). Every fact is read through
    :mod:`autograder.engine.facts`: not through methods the answer could have set on the copy, on
    ``t`` or on torch."""
    kept = Kept(t)
    copy = answer(t)
    with facts.untouched():
        if not facts.is_tensor(copy):
            kept.restore(t)
            return {"returned": f"<{type_name(copy)}>"}
        found = {
            "requires_grad": facts.requires_grad(copy),
            "has a grad_fn": facts.grad_fn(copy) is not None,
            "contiguous": facts.is_contiguous(copy),
            "dtype": str(facts.dtype(copy)).removeprefix("torch."),
            "t left alone by the call": kept.left_alone(t),
        }
        values = facts.clone(facts.detach(copy))
        version = facts.version(t)
        try:
            with facts.no_grad():
                facts.add_(copy, 1)
            found["a write to it"] = "left t alone" if kept.same_values(t) else "changed t"
        except RuntimeError as err:
            found["a write to it"] = f"refused: {first_sentence(str(err))}"
        found["and moved t's version by"] = facts.version(t) - version
        found["values"] = values
        kept.restore(t)
    return found


def _leaf(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 6)).requires_grad_(),)


def _non_leaf(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 3), draw.sized(2, 4)).requires_grad_() * 2,)


def _plain(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 6)),)


def _transposed(draw: Draw) -> tuple:
    return ((draw.randn(draw.sized(2, 4), draw.sized(2, 4)).requires_grad_() + 1).mT,)


def _stepped(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 3), 2 * draw.sized(2, 4))[:, ::2],)


def _integers(draw: Draw) -> tuple:
    rows, columns = draw.sized(2, 3), draw.sized(2, 4)
    return (torch.arange(rows * columns).view(columns, rows).T,)


def _float64_leaf(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 5), dtype=torch.float64).requires_grad_(),)


COPY_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool]] = {
    # name: (what the case draws, recipe (also the search's), hidden)
    "leaf": ("a leaf t that requires grad", _leaf, False),
    "non-leaf": ("t = w * 2, a non-leaf", _non_leaf, False),
    "plain": ("a t that does not require grad", _plain, False),
    "transposed": ("t = (w + 1).mT, a transposed non-leaf", _transposed, False),
    "stepped": ("t = a[:, ::2], every other column", _stepped, True),
    "integers": ("an int64 t, transposed", _integers, True),
    "float64-leaf": ("a float64 leaf t", _float64_leaf, True),
}

independent = exercise("detach-independent", "independent_copy", call=report_copy, returns="observation",
                       agree="close")
for _name, (_what, _recipe, _hidden) in COPY_CASES.items():
    independent.case(_name, f"independent_copy(t), then a write to the copy, for {_what}", _recipe,
                     hidden=_hidden, points=1, search=_recipe, tries=3)


# --------------------------------------------------------------------------- detach-provenance
def report_gradient(answer: Callable[[torch.Tensor], Any], x: torch.Tensor) -> dict[str, Any]:
    """Call ``provenance_grad(x)`` inside a witness of its torch calls; report whether it asked
    autograd to differentiate graphs that start from leaves holding ``x``'s values (one leaf that
    holds them all, or several that hold them between them: one run per element is a run from
    ``x``'s values too), whether it left ``x`` as it was (its values, version, ``requires_grad``
    and ``.grad``), and what it returned (every tensor read through :mod:`autograder.engine.facts`)."""
    kept = Kept(x)
    witness = Witness()
    with witness:
        returned = answer(x)
    leaves = {id(leaf): leaf for root in witness.autograd_roots() for leaf in leaves_of(root)}
    from_x = hold_values_between_them(leaves.values(), kept.values)
    return {"autograd ran from x's values": from_x, "x left alone": left_alone(x, kept),
            "returned": copied(returned)}


def _vector(draw: Draw) -> tuple:
    return (2 * draw.randn(draw.sized(2, 6)),)


def _requires_grad(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 6)).requires_grad_(),)


def _non_leaf_input(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 6)).requires_grad_() * 3,)


def _with_grad(draw: Draw) -> tuple:
    x = draw.randn(draw.sized(2, 6)).requires_grad_()
    x.grad = draw.randn(*x.shape)
    return (x,)


def _float64_matrix(draw: Draw) -> tuple:
    return (draw.randn(draw.sized(2, 3), draw.sized(2, 3), dtype=torch.float64),)


PROVENANCE_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool]] = {
    "vector": ("a drawn vector x", _vector, False),
    "requires-grad": ("a leaf x that already requires grad", _requires_grad, False),
    "non-leaf": ("x = w * 3, a non-leaf", _non_leaf_input, True),
    "grad-already": ("a leaf x that already holds a .grad", _with_grad, True),
    "float64-matrix": ("a float64 matrix x", _float64_matrix, True),
}

provenance = exercise("detach-provenance", "provenance_grad", call=report_gradient, returns="observation",
                      agree="close")
for _name, (_what, _recipe, _hidden) in PROVENANCE_CASES.items():
    provenance.case(_name, f"provenance_grad(x) for {_what}", _recipe, hidden=_hidden, points=1,
                    search=_recipe, tries=3)


# --------------------------------------------------------------------------- detach-ste
def report_ste(answer: Callable[..., Any], x: torch.Tensor, upstream: torch.Tensor, *more: Any) -> dict[str, Any]:
    """Call the answer (``round_ste``, ``spike``) on a fresh leaf with ``x``'s values and the
    ``more`` arguments, backpropagate ``upstream`` from what it returns, and report the forward
    value, the leaf's gradient and the leaf's state (read, and backpropagated, through
    :mod:`autograder.engine.facts`)."""
    with facts.untouched():
        leaf = facts.requires_grad_(facts.clone(facts.detach(x)))
    out = answer(leaf, *more)
    if not facts.is_tensor(out):
        return {"forward": f"<{type_name(out)}>"}
    with facts.untouched():
        forward = facts.clone(facts.detach(out))
        if not facts.requires_grad(out):
            grad: Any = "<no gradient: the result does not require grad>"
        else:
            facts.backward(out, upstream)
            found = facts.grad(leaf)
            grad = None if found is None else facts.clone(found)
        return {"x left alone": facts.version(leaf) == 0 and bool(facts.equal(facts.detach(leaf), x)),
                "forward": forward, "grad": grad}


def _spread(draw: Draw) -> tuple:
    x = 3 * draw.randn(draw.sized(3, 8))
    return x, torch.ones_like(x)


def _halves(draw: Draw) -> tuple:
    halves = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    x = halves[torch.randperm(6, generator=draw.generator)][: draw.sized(4, 6)]
    return x, torch.ones_like(x)


def _weighted(draw: Draw) -> tuple:
    x = 3 * draw.randn(draw.sized(3, 8))
    return x, draw.randn(*x.shape)


def _near_the_edges(draw: Draw) -> tuple:
    n = draw.sized(3, 6)
    x = torch.tensor([draw.choice([-1, 1]) * (2 + draw.choice([-0.4, -0.1, 0.1, 0.3, 0.6])) for _ in range(n)])
    return x, draw.randn(n)


def _bounds(draw: Draw) -> tuple:
    n = draw.sized(2, 6)
    x = torch.tensor([draw.choice([-2.0, 2.0]) for _ in range(n)])
    return x, draw.randn(n)


def _interior(draw: Draw) -> tuple:
    x = draw.uniform(draw.sized(3, 8), low=-1.95, high=1.95)
    return x, draw.randn(*x.shape)


def _interior_halves(draw: Draw) -> tuple:
    return torch.tensor([-1.5, -0.5, 0.5, 1.5]), draw.randn(4)


def _float64(draw: Draw) -> tuple:
    x = 4 * draw.randn(draw.sized(2, 3), 3, dtype=torch.float64)
    return x, torch.ones_like(x)


def _rounding_sums(draw: Draw) -> tuple:
    """float64 values of magnitude in [0.5, 2) whose last bit is set: adding a level of 1 or 2 to
    one moves the sum to the next binade, which has no room for that bit, so the sum rounds."""
    n = draw.sized(3, 8)
    magnitude = (draw.uniform(n) * 1.5 + 0.5).to(torch.float64)
    odd = magnitude.view(torch.int64) | 1
    signs = torch.tensor([draw.choice([-1.0, 1.0]) for _ in range(n)], dtype=torch.float64)
    x = odd.view(torch.float64) * signs
    return x, torch.ones_like(x)


def _every_kind_of_value(draw: Draw) -> tuple:
    """Halves, values just inside and just outside the clipping range and values beyond it (never
    the bounds themselves, which have a check of their own), with a drawn upstream gradient: on
    these every catalogued mistake away from the bounds differs from the rule, whatever the seed,
    so a check's verdict never depends on the luck of its draws."""
    x = torch.tensor([-2.6, -2.5, -2.3, -1.5, -0.5, 0.5, 1.5, 1.9, 2.1, 2.6])
    return x, draw.randn(10)


def _every_kind_of_value_float64(draw: Draw) -> tuple:
    x, upstream = _every_kind_of_value(draw)
    return x.double(), upstream.double()


STE_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool, tuple, str]] = {
    # name: (what the case draws, recipe (also the search's), hidden, anchors, agreement)
    "spread": ("x drawn across and beyond [-2, 2], backward of the sum", _spread, False,
               (_every_kind_of_value,), "close"),
    "halves": ("x of halves (-2.5 ... 2.5), backward of the sum", _halves, False, (_every_kind_of_value,), "close"),
    "bounds": ("x exactly -2 or 2, a drawn upstream gradient", _bounds, False, (), "close"),
    "weighted": ("a drawn x, backward of a drawn upstream gradient", _weighted, True, (_every_kind_of_value,),
                 "close"),
    "edges": ("x just inside and just outside ±2, a drawn upstream gradient", _near_the_edges, True,
              (_every_kind_of_value,), "close"),
    "interior": ("x strictly between -2 and 2, a drawn upstream gradient", _interior, True, (_interior_halves,),
                 "close"),
    "float64": ("a float64 matrix x", _float64, True, (_every_kind_of_value_float64,), "close"),
    "exact": ("float64 x whose sum with a level rounds, the forward compared exactly", _rounding_sums, True, (),
              "eq"),
}

ste = exercise("detach-ste", "round_ste", call=report_ste, returns="observation", agree="close")
for _name, (_what, _recipe, _hidden, _anchors, _agree) in STE_CASES.items():
    ste.case(_name, f"round_ste(x) and backward ({_what})", _recipe, hidden=_hidden, points=1,
             search=_recipe, tries=3, anchors=_anchors, agree=_agree)


# --------------------------------------------------------------------------- detach-surrogate
def _beta(draw: Draw, low: float = 0.5, high: float = 5.0) -> float:
    """A steepness, to two decimals, at least 0.2 away from 1 (where a slope that lacks its
    factor beta would pass)."""
    grid = [round(low + (high - low) * k / 20, 2) for k in range(21)]
    return draw.choice([beta for beta in grid if abs(beta - 1) >= 0.2])


def _spread_beta(draw: Draw) -> tuple:
    x = 2 * draw.randn(draw.sized(3, 8))
    return x, torch.ones_like(x), _beta(draw)


def _with_zeros(draw: Draw) -> tuple:
    """Exact zeros (of both signs) among values on either side: the step's edge."""
    n = draw.sized(4, 8)
    x = draw.randn(n)
    x[0], x[1] = 0.0, -0.0
    x = x[torch.randperm(n, generator=draw.generator)]
    return x, draw.randn(n), _beta(draw)


def _tiny(draw: Draw) -> tuple:
    """Positive values too small for float32's sigmoid of beta * x to leave 0.5 (or for beta * x to
    stay above 0), among their negatives and zeros: the step is 1 on each positive one however
    small, which a step read off the sigmoid (``> 0.5``, ``round``) or off beta * x misses."""
    tiny = [1e-8, 3e-9, 1e-30, 1.4e-45]
    x = torch.tensor(tiny + [-t for t in tiny[:2]] + [0.0, -0.0])
    x = x[torch.randperm(len(x), generator=draw.generator)]
    return x, draw.randn(len(x)), _beta(draw, 0.1, 0.8)


def _weighted_beta(draw: Draw) -> tuple:
    x = 2 * draw.randn(draw.sized(3, 8))
    return x, draw.randn(*x.shape), _beta(draw)


def _float64_beta(draw: Draw) -> tuple:
    x = 2 * draw.randn(draw.sized(2, 3), 3, dtype=torch.float64)
    return x, draw.randn(*x.shape, dtype=torch.float64), _beta(draw)


def _far(draw: Draw) -> tuple:
    """Values far from 0 on both sides, where beta * x is beyond what exp can take (exp(89) is inf in
    float32): the slope is 0 there, and a formula through exp(-beta * x) gives nan."""
    n = draw.sized(4, 8)
    x = torch.tensor([draw.choice([-1, 1]) * draw.choice([30.0, 60.0, 120.0, 250.0]) for _ in range(n)])
    x[0], x[1] = -250.0, 250.0
    return x, draw.randn(n), _beta(draw)


def _matrix_beta(draw: Draw) -> tuple:
    x = 2 * draw.randn(draw.sized(2, 4), draw.sized(2, 3), draw.sized(1, 3))
    return x, draw.randn(*x.shape), _beta(draw)


def _steep(draw: Draw) -> tuple:
    x = 0.1 * draw.randn(draw.sized(3, 8))
    return x, draw.randn(*x.shape), _beta(draw, 10.0, 30.0)


def _gentle(draw: Draw) -> tuple:
    x = 4 * draw.randn(draw.sized(3, 8))
    return x, draw.randn(*x.shape), _beta(draw, 0.1, 0.6)


SURROGATE_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool, tuple[Callable[[Draw], tuple], ...]]] = {
    # name: (what the case draws, recipe (also the search's), hidden, anchors). Far from 0 every
    # slope is 0, the right one and a wrong one alike: that check also runs on a drawn x, and
    # passes only when the slope is right there too.
    "spread": ("a drawn x, backward of the sum", _spread_beta, False, ()),
    "zeros": ("x with exact zeros (0.0 and -0.0) among other values, a drawn upstream gradient", _with_zeros, False,
              ()),
    "weighted": ("a drawn x, backward of a drawn upstream gradient", _weighted_beta, False, ()),
    "tiny": ("x of tiny values of both signs (down to float32's smallest) and zeros", _tiny, True, ()),
    "float64": ("a float64 matrix x", _float64_beta, True, ()),
    "far": ("x far from 0 on both sides (|beta * x| past what exp can take), and a drawn x", _far, True,
            (_weighted_beta,)),
    "three-dimensions": ("a drawn x of three dimensions", _matrix_beta, True, ()),
    "steep": ("x near 0, beta between 10 and 30", _steep, True, ()),
    "gentle": ("a drawn x, beta between 0.1 and 0.6", _gentle, True, ()),
}


def _show_surrogate(inputs: tuple) -> str:
    x, upstream, beta = inputs
    return f"x {brief(x, 60)}, beta={beta}, upstream gradient {brief(upstream, 40)}"


# Loosely: torch's sigmoid backward computes s * (1 - s) from s rounded to float32, which near s = 1
# is off by up to about beta * 3e-8 of the true slope; a slope written another way (through
# exp(-|beta * x|)) is nearer the true one. Both are right, and any mistake is far larger.
surrogate = exercise("detach-surrogate", "spike", call=report_ste, returns="observation", agree="loose",
                     show=_show_surrogate)
for _name, (_what, _recipe, _hidden, _anchors) in SURROGATE_CASES.items():
    surrogate.case(_name, f"spike(x, beta) and backward ({_what})", _recipe, hidden=_hidden, points=1,
                   search=_recipe, tries=3, anchors=_anchors)


# --------------------------------------------------------------------------- detach-selftest
SELFTEST_QUESTIONS = {
    "q1": ("x = torch.ones(3, requires_grad=True); y = x.clone().detach(); y.add_(1): does x._version change?",
           "bool"),
    "q2": ("x = torch.tensor(2., requires_grad=True); y = x ** 3; (x * y.detach() + y).backward(): "
           "what is x.grad.item()?", "float"),
    "q3": ("x = torch.ones(3, requires_grad=True): is x.detach().requires_grad_() a leaf?", "bool"),
    "q4": ("under torch.inference_mode(): b = torch.ones(3) * 2; c = b.clone(). Can c be saved for backward "
           "in a computation outside inference mode?", "bool"),
    "q5": ("layer = nn.Linear(3, 2) built normally; under torch.inference_mode(): layer.weight.mul_(0.5). "
           "After a forward and backward outside it, is layer.weight.grad None?", "bool"),
    "q6": ("loss = head(encoder(x)).sum().detach().requires_grad_(): does loss.backward() raise an error?",
           "bool"),
    "q7": ("after that loss.backward(), is head.weight.grad None?", "bool"),
    "q8": ("p = nn.Parameter(torch.ones(3)): is p.detach() an nn.Parameter?", "bool"),
}
selftest("detach-selftest", SELFTEST_QUESTIONS, agree="close")

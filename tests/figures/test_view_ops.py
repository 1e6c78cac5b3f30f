"""The view ops the explorers offer beyond indexing show what the Python a reader types does.

Each op is parsed from the text a reader types and applied by the explorer's path
(:func:`autograd_figures.chain.apply_chain`: parsed, applied by torch, copies refused); the same
chain is also run as the Python its ops print as (``t.narrow(1, 2, 3)`` ...), evaluated on
``torch.arange(n.).view(shape)``. The explorer must show that tensor's shape, stride and offset, and
refuse what torch refuses. ``flatten`` copies where a view is impossible: there torch's result has
its own storage and the explorer refuses.
"""

from __future__ import annotations

import math
import random

import pytest
import torch

from autograd_figures.chain import apply_chain, parse_op, torch_chain
from autograd_figures.layout import Layout, ViewError

# (start shape, op): every new op, with arguments that fit and that torch refuses.
EXAMPLES = [
    ((4, 8), "narrow(1, 2, 3)"), ((4, 8), "narrow(0, -2, 2)"), ((4, 8), "narrow(1, 6, 3)"),
    ((4, 8), "select(1, 5)"), ((4, 8), "select(0, -1)"), ((4, 8), "select(0, 4)"),
    ((4, 8), "unbind(0)[2]"), ((4, 8), "unbind(1)[-1]"), ((4, 8), "unbind(0)[4]"),
    ((4, 8), "split(3, 1)[2]"), ((4, 8), "split(3)[1]"), ((4, 8), "split((1, 3), 0)[1]"),
    ((4, 8), "split([2, 6], 1)[0]"), ((4, 8), "split((2, 2), 1)[0]"), ((4, 8), "split(5, 1)[3]"),
    ((5, 8), "chunk(2)[1]"), ((4, 8), "chunk(3, 1)[2]"), ((4, 7), "chunk(3, 1)[-1]"), ((4, 8), "chunk(0)[0]"),
    ((4, 8), "diagonal()"), ((4, 8), "diagonal(2)"), ((4, 8), "diagonal(-1)"), ((4, 8), "diagonal(9)"),
    ((2, 3, 4), "diagonal(0, 0, 2)"), ((2, 3, 4), "diagonal(1, -1, 1)"), ((4, 8), "diagonal(0, 1, 1)"),
    ((4, 8), "unfold(1, 3, 2)"), ((4, 8), "unfold(0, 4, 1)"), ((4, 8), "unfold(0, 5, 1)"),
    ((4, 8), "unfold(1, 2, 0)"), ((2, 3, 4), "unfold(-1, 2, 3)"),
    ((1, 4, 1, 8), "squeeze()"), ((1, 4, 1, 8), "squeeze(2)"), ((1, 4, 1, 8), "squeeze(1)"),
    ((1, 4, 1, 8), "squeeze((0, 2))"), ((1, 4, 1, 8), "squeeze(0, -2)"), ((4, 8), "squeeze(5)"),
    ((2, 3, 4), "movedim(0, -1)"), ((2, 3, 4), "movedim((0, 1), (2, 0))"), ((2, 3, 4), "movedim(0, 3)"),
    ((2, 3, 4), "movedim((0, 0), (1, 2))"),
    ((2, 3, 4), "flatten()"), ((2, 3, 4), "flatten(1)"), ((2, 3, 4), "flatten(0, 1)"),
    ((2, 3, 4), "flatten(1, 1)"), ((2, 3, 4), "flatten(2, 1)"),
    ((4, 8), "as_strided((2, 2), (1, 2))"), ((4, 8), "as_strided((3, 3), (8, 9), 1)"),
    ((4, 8), "as_strided((4, 8), (8, 1), 1)"), ((4, 8), "as_strided((2,), (1, 1))"),
    ((4, 8), "as_strided((32,), (0,), 31)"),
]


def typed(shape: tuple[int, ...], ops: list[str]) -> torch.Tensor:
    """The chain run as the Python its ops print as, on a fresh ``torch.arange(n.).view(shape)``."""
    code = "t" + "".join(parse_op(op).code for op in ops)
    return eval(code, {"t": torch.arange(float(math.prod(shape))).view(shape)})  # noqa: S307 (printed ops)


def torch_result(shape: tuple[int, ...], ops: list[str]) -> torch.Tensor | Exception:
    try:
        return typed(shape, ops)
    except (RuntimeError, IndexError, ValueError, TypeError) as err:
        return err


def explorer_result(shape: tuple[int, ...], ops: list[str]) -> Layout | Exception:
    try:
        return apply_chain(shape, ops)
    except (ValueError, ViewError) as err:
        return err


def shares_storage(tensor: torch.Tensor, shape: tuple[int, ...], ops: list[str]) -> bool:
    """Whether the chain's result still reads the start tensor's storage (a view, not a copy)."""
    base = torch.arange(float(math.prod(shape))).view(shape)
    code = "t" + "".join(parse_op(op).code for op in ops)
    result = eval(code, {"t": base})  # noqa: S307 (printed ops)
    return result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()


def assert_agree(shape: tuple[int, ...], ops: list[str]) -> None:
    expected, found = torch_result(shape, ops), explorer_result(shape, ops)
    if isinstance(expected, Exception):
        assert isinstance(found, Exception), f"torch refuses {ops} on {shape} ({expected}); explorer: {found}"
        assert str(found) == str(expected), "the explorer shows torch's own message"
        return
    if not shares_storage(expected, shape, ops):
        assert isinstance(found, ViewError), f"torch copies for {ops} on {shape}; the explorer must refuse"
        return
    assert not isinstance(found, Exception), f"torch accepts {ops} on {shape} but the explorer says: {found}"
    assert found == Layout.of(expected), (shape, ops)


@pytest.mark.parametrize(("shape", "op"), EXAMPLES, ids=[f"{s}-{o}" for s, o in EXAMPLES])
def test_each_op_agrees_with_torch(shape, op):
    assert_agree(shape, [op])


def test_flatten_refuses_where_torch_copies():
    assert not shares_storage(torch_chain((4, 8), ["T", "flatten()"]), (4, 8), ["T", "flatten()"])
    with pytest.raises(ViewError, match="copies here"):
        apply_chain((4, 8), ["T", "flatten()"])


def test_a_piece_must_be_chosen_and_only_from_tuple_ops():
    with pytest.raises(ValueError, match="pick one piece"):
        parse_op("split(2, 1)")
    with pytest.raises(ValueError, match="takes no"):
        parse_op("narrow(0, 1, 2)[0]")


def test_ops_print_back_as_the_python_that_applies_them():
    for text in ("split((1, 3), 0)[1]", "as_strided((2,), (1,), 3)", "movedim((0, 1), (2, 0))", "unbind(0)[2]"):
        op = parse_op(text)
        assert op.code == "." + text
        again = parse_op(op.code)
        assert (again.kind, again.args, again.piece) == (op.kind, op.args, op.piece)


def random_op(rng: random.Random, ndim: int, numel: int) -> str:
    """One of the new ops with arguments that may or may not fit."""
    dim = rng.randint(-ndim, ndim - 1) if ndim else 0
    other = rng.randint(-ndim, ndim - 1) if ndim else 0
    small = rng.randint(0, 4)
    kind = rng.choice(["narrow", "select", "unbind", "split", "splits", "chunk", "diagonal", "unfold",
                       "squeeze", "movedim", "flatten", "as_strided"])
    if kind == "narrow":
        return f"narrow({dim}, {rng.randint(-3, 3)}, {small})"
    if kind == "select":
        return f"select({dim}, {rng.randint(-3, 3)})"
    if kind == "unbind":
        return f"unbind({dim})[{rng.randint(-2, 3)}]"
    if kind == "split":
        return f"split({rng.randint(1, 3)}, {dim})[{rng.randint(-2, 2)}]"
    if kind == "splits":
        return f"split(({rng.randint(0, 2)}, {rng.randint(0, 3)}), {dim})[{rng.randint(0, 1)}]"
    if kind == "chunk":
        return f"chunk({rng.randint(1, 4)}, {dim})[{rng.randint(-2, 2)}]"
    if kind == "diagonal":
        return f"diagonal({rng.randint(-3, 3)}, {dim}, {other})"
    if kind == "unfold":
        return f"unfold({dim}, {small}, {rng.randint(1, 3)})"
    if kind == "squeeze":
        return rng.choice(["squeeze()", f"squeeze({dim})", f"squeeze(({dim}, {other}))"])
    if kind == "movedim":
        return rng.choice([f"movedim({dim}, {other})", f"movedim(({dim},), ({other},))"])
    if kind == "flatten":
        return rng.choice(["flatten()", f"flatten({dim})", f"flatten({dim}, {other})"])
    sizes = [rng.randint(1, 3) for _ in range(rng.randint(1, 3))]
    strides = [rng.randint(0, 5) for _ in sizes]
    return f"as_strided({tuple(sizes)}, {tuple(strides)}, {rng.randint(0, numel)})"


def random_chains(count: int, seed: int = 11) -> list[tuple[tuple[int, ...], list[str]]]:
    rng = random.Random(seed)
    chains = []
    for _ in range(count):
        shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))
        ops = []
        for _ in range(rng.randint(1, 3)):
            found = explorer_result(shape, ops)
            ndim = len(found.shape) if isinstance(found, Layout) else len(shape)
            ops.append(random_op(rng, ndim, math.prod(shape)))
        chains.append((shape, ops))
    return chains


def test_random_chains_of_new_ops_agree_with_torch():
    chains = random_chains(600)
    for shape, ops in chains:
        assert_agree(shape, ops)
    accepted = sum(not isinstance(explorer_result(s, o), Exception) for s, o in chains)
    assert 150 < accepted < 550  # both accepted and refused chains are exercised

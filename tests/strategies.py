"""Hypothesis strategies for autograd_figures: small shapes, valid view-op chains and view targets.

Chains are generated as op *texts* of the chain language and kept valid by applying each op
to a real tensor as it is drawn, so torch (not autograd_figures) decides what the current shape is.
"""

from __future__ import annotations

import torch
from hypothesis import strategies as st

from autograd_figures import parse_op

MAX_DIMS = 4  # unsqueeze and expand stop growing the tensor here

shapes = st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple)


def _bound(size: int) -> st.SearchStrategy[int | None]:
    # Out-of-range bounds on purpose: slicing clamps them.
    return st.none() | st.integers(-size - 2, size + 2)


def _slice_text(draw: st.DrawFn, size: int) -> str:
    start, stop = draw(_bound(size)), draw(_bound(size))
    step = draw(st.sampled_from([None, 1, 2, 3]))
    text = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
    return text + ("" if step is None else f":{step}")


@st.composite
def _op_for(draw: st.DrawFn, shape: tuple[int, ...]) -> str:
    """One op text that is valid for a tensor of ``shape``."""
    n = len(shape)
    kinds = ["unsqueeze", "none_index"] if n < MAX_DIMS else []
    kinds += ["expand"]
    if n >= 1:
        kinds += ["transpose", "permute", "slice", "multi_slice"]
        if any(size > 0 for size in shape):
            kinds.append("select")
    if n == 2:
        kinds.append("T")
    kind = draw(st.sampled_from(kinds))
    if kind == "T":
        return "T"
    if kind == "transpose":
        dims = st.integers(-n, n - 1)
        return f"transpose({draw(dims)}, {draw(dims)})"
    if kind == "permute":
        return f"permute({', '.join(map(str, draw(st.permutations(range(n)))))})"
    if kind == "unsqueeze":
        return f"unsqueeze({draw(st.integers(-n - 1, n))})"
    if kind == "none_index":
        return draw(st.sampled_from(["[None]", "[..., None]", "[:, None]"]))
    if kind == "slice":
        dim = draw(st.integers(0, n - 1))
        prefix = draw(st.sampled_from(["", "..., "])) if dim == n - 1 else ""
        leading = "" if prefix else ":, " * dim
        return f"[{prefix}{leading}{_slice_text(draw, shape[dim])}]"
    if kind == "multi_slice":
        return "[" + ", ".join(_slice_text(draw, size) for size in shape) + "]"
    if kind == "select":
        dim = draw(st.sampled_from([d for d, size in enumerate(shape) if size > 0]))
        index = draw(st.integers(-shape[dim], shape[dim] - 1))
        return "[" + ":, " * dim + f"{index}]"
    # expand: size-1 dims may grow, others keep their size (or say -1); maybe add leading dims.
    sizes = [
        draw(st.sampled_from([-1, 1, 2, 3])) if size == 1 else draw(st.sampled_from([-1, size]))
        for size in shape
    ]
    leading = draw(st.lists(st.integers(1, 3), max_size=MAX_DIMS - n))
    return f"expand({', '.join(map(str, leading + sizes))})"


@st.composite
def chains(draw: st.DrawFn, max_ops: int = 4) -> tuple[tuple[int, ...], list[str]]:
    """A start shape and a list of op texts, each valid for the tensor the previous ones made."""
    shape = draw(shapes)
    tensor = torch.zeros(shape)
    ops: list[str] = []
    for _ in range(draw(st.integers(0, max_ops))):
        if tensor.dim() == 0:
            # Only expand/unsqueeze make sense on a 0-d tensor; the 0-d expand() is an edge case
            # worth keeping.
            text = draw(st.sampled_from(["unsqueeze(0)", "expand(3)", "expand(1, 2)", "[None]"]))
        else:
            text = draw(_op_for(tuple(tensor.shape)))
        ops.append(text)
        tensor = parse_op(text).apply_torch(tensor)
    return shape, ops


@st.composite
def view_targets(draw: st.DrawFn, numel: int) -> tuple[int, ...]:
    """A shape to ``view`` a tensor of ``numel`` elements as: usually a factorisation, maybe with -1.

    Now and then the element count is wrong on purpose, to exercise the size-mismatch path.
    """
    if draw(st.integers(0, 9)) == 0:
        return (numel + draw(st.integers(1, 3)),)
    n_dims = draw(st.integers(1, 4))
    if numel == 0:
        sizes = draw(st.lists(st.integers(0, 3), min_size=n_dims, max_size=n_dims))
        position = draw(st.integers(0, n_dims - 1))
        sizes[position] = 0
    else:
        sizes = [1] * n_dims
        for prime in _prime_factors(numel):
            sizes[draw(st.integers(0, n_dims - 1))] *= prime
    if draw(st.booleans()):
        sizes[draw(st.integers(0, n_dims - 1))] = -1
    return tuple(sizes)


def _prime_factors(n: int) -> list[int]:
    factors, p = [], 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return factors

"""Layouts drawn for the checks of Chapter 1 and its companion: headers that torch itself made.

A drawn layout is read off a real tensor built by real view operations (a slice with a step, a
permutation, an offset into a longer storage), so every layout a check uses is one that occurs.
The checks hand it to an answer as a :class:`~autograder.engine.bare.Layout` or as plain integers,
never as a tensor.

Defined for Chapter 1, "Views, strides and storage", and its closed-book companion.
"""

from __future__ import annotations

import torch

from autograder.engine.bare import Layout
from autograder.engine.draw import Draw

Shape = tuple[int, ...]


def layout_of(t: torch.Tensor) -> Layout:
    """A tensor's header as a :class:`Layout` (contiguity as torch reports it)."""
    return Layout(tuple(t.shape), t.stride(), t.storage_offset(), t.is_contiguous())


def header(t: torch.Tensor) -> tuple[Shape, Shape, int]:
    """``(shape, stride, storage offset)`` as plain ints."""
    return tuple(t.shape), t.stride(), t.storage_offset()


def drawn_tensor(draw: Draw, dims: int, low: int = 2, high: int = 5, ones: int = 0, long: int = 0,
                 step: bool = True, permute: bool = True) -> tuple[torch.Tensor, int]:
    """A tensor torch produced as a view: a fresh tensor, one dimension sliced with a step, the
    dimensions permuted, and an offset into a longer storage.

    Args:
        draw: The seeded source.
        dims: Number of dimensions.
        low: Smallest size of a dimension.
        high: Largest size of a dimension (bounded by the draw's size).
        ones: How many dimensions are forced to size 1.
        long: When positive, one dimension whose stride is at least 2 gets this size.
        step: Slice one dimension with a step of 1 to 3.
        permute: Shuffle the dimensions.

    Returns:
        The tensor, and where the long dimension ended up (0 when there is none).
    """
    sizes = list(draw.shape(dims, low, high))
    for index in draw.rng.sample(range(dims), ones):
        sizes[index] = 1
    target = draw.integer(0, dims - 2) if dims > 1 else 0
    if long:
        sizes[target] = long
    factor = draw.sized(1, 3) if step else 1
    stepped = draw.integer(0, dims - 1)
    storage_sizes = [size * factor if index == stepped else size for index, size in enumerate(sizes)]
    lead = draw.sized(0, 7)
    count = 1
    for size in storage_sizes:
        count *= size
    base = torch.arange(float(lead + count))[lead:].view(storage_sizes)
    view = base[(slice(None),) * stepped + (slice(None, None, factor),)]
    order = list(range(dims))
    if permute:
        draw.rng.shuffle(order)
    return view.permute(order), order.index(target)


def over_storage(shape: Shape, stride: Shape, offset: int) -> torch.Tensor:
    """A real tensor with this header, over a storage just large enough for it."""
    extent = offset + sum((size - 1) * step for size, step in zip(shape, stride, strict=True) if size > 0) + 1
    return torch.empty(max(extent, 1)).as_strided(shape, stride, offset)


def as_tensor(layout: Layout) -> torch.Tensor:
    """A real tensor with a :class:`Layout`'s header (trusted code that needs one)."""
    return over_storage(layout.shape, layout.stride(), layout.storage_offset())

"""The key of the closed-book companion of Chapter 1: torch's own layouts, and the mistakes.

Every expected layout is read off a real tensor that torch builds over the same storage
positions. Each model is a wrong rule, written as a learner would write it.
"""

from __future__ import annotations

import torch

from answer_key.keys import Model, key
from autograder.engine.layouts import header, over_storage

Shape = tuple[int, ...]


def torch_contiguous(shape: Shape) -> Shape:
    return torch.empty(shape).stride()


def contiguous_stride(shape: Shape) -> tuple[int | None, ...]:
    """Torch's strides, with None along a dimension of size 0 or 1: it addresses nothing, and the
    check does not compare it."""
    return tuple(None if size <= 1 else step for size, step in zip(shape, torch_contiguous(shape), strict=True))


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    shape_, stride_, _ = header(over_storage(shape, stride, 0).transpose(d0, d1))
    return shape_, stride_


def sliced(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int):
    t = over_storage(shape, stride, offset)
    return header(t[(slice(None),) * (dim % len(shape)) + (slice(start, stop, step),)])


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    shape_, stride_, _ = header(over_storage(shape, stride, 0).expand(new_shape))
    return shape_, stride_


REFERENCE = {"contiguous_stride": contiguous_stride, "transposed": transposed, "sliced": sliced,
             "expanded": expanded}


def _with(**replaced):
    return {**REFERENCE, **replaced}


def _column_major(shape: Shape) -> Shape:
    strides, run = [], 1
    for size in shape:
        strides.append(run)
        run *= size
    return tuple(strides)


def _zero_size_product(shape: Shape) -> Shape:
    strides, run = [], 1
    for size in reversed(shape):
        strides.append(run)
        run *= size
    return tuple(reversed(strides))


def _shape_only_swapped(shape, stride, d0, d1):
    sizes = list(shape)
    sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
    return tuple(sizes), tuple(stride)


def _recomputed(shape, stride, d0, d1):
    sizes, _ = _shape_only_swapped(shape, stride, d0, d1)
    return sizes, torch_contiguous(sizes)


def _slice_parts(shape, stride, offset, dim, start, stop, step):
    sizes, steps = list(shape), list(stride)
    sizes[dim] = -(-(stop - start) // step)
    return sizes, steps, offset + start * stride[dim]


def _step_ignored(*inputs):
    sizes, steps, offset = _slice_parts(*inputs)
    return tuple(sizes), tuple(steps), offset


def _offset_by_start(shape, stride, offset, dim, start, stop, step):
    sizes, steps, _ = _slice_parts(shape, stride, offset, dim, start, stop, step)
    steps[dim] *= step
    return tuple(sizes), tuple(steps), offset + start


def _offset_unmoved(shape, stride, offset, dim, start, stop, step):
    sizes, steps, _ = _slice_parts(shape, stride, offset, dim, start, stop, step)
    steps[dim] *= step
    return tuple(sizes), tuple(steps), offset


def _floor_size(shape, stride, offset, dim, start, stop, step):
    sizes, steps, moved = _slice_parts(shape, stride, offset, dim, start, stop, step)
    sizes[dim] = (stop - start) // step
    steps[dim] *= step
    return tuple(sizes), tuple(steps), moved


def _expand_keeps(shape, stride, new_shape):
    lead = len(new_shape) - len(shape)
    sizes = tuple(old if new == -1 else new for new, old in zip(new_shape[lead:], shape, strict=True))
    return tuple(new_shape[:lead]) + sizes, (0,) * lead + tuple(stride)


def _expand_fresh(shape, stride, new_shape):
    sizes, _ = _expand_keeps(shape, stride, new_shape)
    return sizes, torch_contiguous(sizes)


def _expand_minus_one(shape, stride, new_shape):
    return tuple(new_shape), expanded(shape, stride, new_shape)[1]


def _listed(function):
    def lists(*inputs):
        found = function(*inputs)
        return [list(part) if type(part) is tuple else part for part in found] if type(found[0]) is tuple \
            else list(found)

    return lists


key("views-reproduce", REFERENCE, models=[
    Model("column-major", _with(contiguous_stride=_column_major),
          "the first dimension were the one that moves fastest through memory."),
    Model("shape-as-stride", _with(contiguous_stride=lambda shape: tuple(shape)), "a stride were a size."),
    Model("zero-size-product", _with(contiguous_stride=_zero_size_product),
          "a dimension of size 0 gave every dimension before it a stride of 0."),
    Model("transpose-moves-sizes-only", _with(transposed=_shape_only_swapped),
          "swapping two dimensions exchanged their sizes and left their strides in place."),
    Model("transpose-relays", _with(transposed=_recomputed),
          "a transpose wrote the data out afresh in the new order."),
    Model("step-ignored", _with(sliced=_step_ignored), "a step in a slice left that dimension's stride as it was."),
    Model("offset-by-start", _with(sliced=_offset_by_start),
          "start were a number of storage slots."),
    Model("offset-unmoved", _with(sliced=_offset_unmoved), "a slice that starts later began at the same offset."),
    Model("floor-size", _with(sliced=_floor_size), "a slice dropped a last step that is shorter than the others."),
    Model("expand-keeps-strides", _with(expanded=_expand_keeps),
          "a stretched size-1 dimension kept the stride it had."),
    Model("expand-fresh", _with(expanded=_expand_fresh), "expand laid the repeated elements out in new memory."),
    Model("minus-one-kept", _with(expanded=_expand_minus_one), "-1 stayed in the result's shape."),
    Model("lists", {name: _listed(function) for name, function in REFERENCE.items()},
          "a shape or a stride could be given as a list."),
])

import math
from itertools import accumulate

Shape = tuple[int, ...]


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    # suffix products of the later sizes (a size 0 counts as 1), innermost first
    if not shape:
        return ()
    later = [max(s, 1) for s in reversed(shape[1:])]
    return tuple(reversed(list(accumulate(later, lambda a, b: a * b, initial=1))))


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    n = len(shape)
    if n == 0:
        return tuple(shape), tuple(stride)
    swap = {d0 % n: d1 % n, d1 % n: d0 % n}
    order = [swap.get(i, i) for i in range(n)]
    return tuple(shape[i] for i in order), tuple(stride[i] for i in order)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    d = dim % len(shape)
    kept = len(range(start, stop, step))
    return (
        shape[:d] + (kept,) + shape[d + 1:],
        stride[:d] + (stride[d] * step,) + stride[d + 1:],
        offset + start * stride[d],
    )


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    lead = len(new_shape) - len(shape)
    old = [(None, None)] * lead + list(zip(shape, stride))
    sizes = tuple(o if n == -1 else n for n, (o, _) in zip(new_shape, old))
    strides = tuple(
        s if (o is not None and (n == -1 or n == o)) else 0
        for n, (o, s) in zip(new_shape, old)
    )
    return sizes, strides

import math

Shape = tuple[int, ...]


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    return tuple(math.prod(max(s, 1) for s in shape[d + 1:]) for d in range(len(shape)))


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    if not shape:
        return (), ()
    perm = list(range(len(shape)))
    perm[d0], perm[d1] = perm[d1], perm[d0]  # Python's negative indexing counts from the end
    return tuple(shape[p] for p in perm), tuple(stride[p] for p in perm)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    new_shape, new_stride = list(shape), list(stride)
    new_shape[dim] = -(-(stop - start) // step)  # ceil: a last step may be cut short
    new_stride[dim] *= step
    return tuple(new_shape), tuple(new_stride), offset + start * stride[dim]


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    k = len(new_shape) - len(shape)
    sizes = [n if n != -1 else shape[i - k] for i, n in enumerate(new_shape)]
    strides = [
        0 if i < k or shape[i - k] != sizes[i] else stride[i - k]
        for i in range(len(new_shape))
    ]
    return tuple(sizes), tuple(strides)

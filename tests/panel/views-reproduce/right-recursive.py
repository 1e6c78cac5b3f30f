Shape = tuple[int, ...]


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    if len(shape) == 0:
        return ()
    if len(shape) == 1:
        return (1,)
    rest = contiguous_stride(shape[1:])
    return (rest[0] * max(shape[1], 1),) + rest


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    n = len(shape)
    if n == 0:
        return (), ()
    if d0 < 0:
        d0 += n
    if d1 < 0:
        d1 += n
    lo, hi = min(d0, d1), max(d0, d1)

    def swap(xs):
        if lo == hi:
            return tuple(xs)
        return tuple(xs[:lo]) + (xs[hi],) + tuple(xs[lo + 1:hi]) + (xs[lo],) + tuple(xs[hi + 1:])

    return swap(shape), swap(stride)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    if dim < 0:
        dim += len(shape)
    count = 0
    i = start
    while i < stop:  # count the kept indices start, start + step, ...
        count += 1
        i += step
    new_shape = tuple(count if d == dim else s for d, s in enumerate(shape))
    new_stride = tuple(s * step if d == dim else s for d, s in enumerate(stride))
    return new_shape, new_stride, offset + start * stride[dim]


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    if len(new_shape) > len(shape):  # add a leading size-1 dimension, then expand it
        return expanded((1,) + tuple(shape), (0,) + tuple(stride), new_shape)
    out_shape, out_stride = [], []
    for size, st, target in zip(shape, stride, new_shape):
        if target == -1:
            target = size
        out_shape.append(target)
        out_stride.append(st if target == size else 0)
    return tuple(out_shape), tuple(out_stride)

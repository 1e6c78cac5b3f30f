Shape = tuple[int, ...]


def _dim(d, ndim):
    d = int(d)
    if not -ndim <= d < ndim:
        raise IndexError(f"dimension {d} out of range for {ndim} dimensions")
    return d + ndim if d < 0 else d


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    shape = [int(s) for s in shape]
    out = []
    acc = 1
    for s in reversed(shape):
        out.append(acc)
        if s > 1:  # sizes 0 and 1 leave the running product alone
            acc *= s
    return tuple(reversed(out))


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    shape, stride = [int(s) for s in shape], [int(s) for s in stride]
    if not shape:  # a 0-d layout: torch accepts dims 0 and -1 and changes nothing
        return (), ()
    a, b = _dim(d0, len(shape)), _dim(d1, len(shape))
    shape[a], shape[b] = shape[b], shape[a]
    stride[a], stride[b] = stride[b], stride[a]
    return tuple(shape), tuple(stride)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    shape, stride = [int(s) for s in shape], [int(s) for s in stride]
    d = _dim(dim, len(shape))
    start, stop, step = int(start), int(stop), int(step)
    if step < 1:
        raise ValueError("step must be positive")
    start = min(max(start, 0), shape[d])
    stop = min(max(stop, start), shape[d])
    new_offset = int(offset) + start * stride[d]
    shape[d] = 0 if stop == start else (stop - start - 1) // step + 1
    stride[d] = stride[d] * step
    return tuple(shape), tuple(stride), new_offset


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    shape, stride = [int(s) for s in shape], [int(s) for s in stride]
    new_shape = [int(s) for s in new_shape]
    if len(new_shape) < len(shape):
        raise ValueError("expand cannot drop dimensions")
    out_shape, out_stride = [], []
    # walk from the last dimension, aligning new_shape to the right
    for i in range(1, len(new_shape) + 1):
        target = new_shape[-i]
        if i <= len(shape):
            size, st = shape[-i], stride[-i]
            if target == -1:
                target = size
            if target != size:
                if size != 1:
                    raise ValueError(f"cannot expand size {size} to {target}")
                st = 0
        else:
            if target < 0:
                raise ValueError("-1 is not allowed for a new leading dimension")
            st = 0
        out_shape.append(target)
        out_stride.append(st)
    return tuple(reversed(out_shape)), tuple(reversed(out_stride))

Shape = tuple[int, ...]


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    n = len(shape)
    strides = [1] * n
    for d in range(n - 2, -1, -1):
        strides[d] = strides[d + 1] * (shape[d + 1] if shape[d + 1] > 1 else 1)
    return tuple(strides)


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    n = len(shape)
    if n == 0:  # torch wraps dims of a 0-d tensor as if it had one
        return (), ()
    i, j = (d0 + n) % n, (d1 + n) % n
    s = [shape[j] if k == i else shape[i] if k == j else shape[k] for k in range(n)]
    t = [stride[j] if k == i else stride[i] if k == j else stride[k] for k in range(n)]
    return tuple(s), tuple(t)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    d = (dim + len(shape)) % len(shape)
    size = list(shape)
    st = list(stride)
    size[d], rem = divmod(stop - start, step)
    if rem:
        size[d] += 1
    st[d] = stride[d] * step
    return tuple(size), tuple(st), offset + start * stride[d]


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    # as ATen's inferExpandGeometry: walk from the last dimension
    ndim, tdim = len(new_shape), len(shape)
    sizes, strides = [0] * ndim, [0] * ndim
    for i in range(ndim - 1, -1, -1):
        d = tdim - 1 - (ndim - 1 - i)
        size = shape[d] if d >= 0 else 1
        st = stride[d] if d >= 0 else (sizes[i + 1] * strides[i + 1] if i + 1 < ndim else 1)
        target = new_shape[i]
        if target == -1:
            target = size
        if size != target:
            size, st = target, 0
        sizes[i], strides[i] = size, st
    return tuple(sizes), tuple(strides)

Shape = tuple[int, ...]


def contiguous_stride(shape: Shape) -> Shape:
    """The strides of a freshly allocated tensor of this shape."""
    stride = [0] * len(shape)
    step = 1
    for d in range(len(shape) - 1, -1, -1):
        stride[d] = step
        step *= shape[d]
    return tuple(stride)


def transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout with dimensions d0 and d1 transposed."""
    n = len(shape)
    if n == 0:  # a 0-d layout: nothing to swap
        return (), ()
    d0, d1 = d0 % n, d1 % n
    new_shape, new_stride = list(shape), list(stride)
    new_shape[d0], new_shape[d1] = shape[d1], shape[d0]
    new_stride[d0], new_stride[d1] = stride[d1], stride[d0]
    return tuple(new_shape), tuple(new_stride)


def sliced(
    shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int, step: int
) -> tuple[Shape, Shape, int]:
    """(shape, stride, offset) of the slice start:stop:step along dimension dim."""
    dim = dim % len(shape)
    new_shape, new_stride = list(shape), list(stride)
    new_shape[dim] = (stop - start + step - 1) // step
    new_stride[dim] = stride[dim] * step
    return tuple(new_shape), tuple(new_stride), offset + start * stride[dim]


def expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """(shape, stride) of the layout expanded to new_shape."""
    lead = len(new_shape) - len(shape)
    out_shape, out_stride = [], []
    for i, target in enumerate(new_shape):
        if i < lead:  # a new leading dimension reads the same slots again
            out_shape.append(target)
            out_stride.append(0)
            continue
        size, st = shape[i - lead], stride[i - lead]
        if target == -1 or target == size:
            out_shape.append(size)
            out_stride.append(st)
        else:  # only a size-1 dimension can grow: stride 0
            out_shape.append(target)
            out_stride.append(0)
    return tuple(out_shape), tuple(out_stride)

import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes = tuple(t.shape)
    strides = tuple(t.stride())
    n = 1
    for s in sizes:
        n *= s

    shape = list(shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        return False
    rest = 1
    for s in shape:
        if s != -1:
            rest *= s
    if -1 in shape:
        if rest == 0 or n % rest:
            return False
        shape[shape.index(-1)] = n // rest
    elif rest != n:
        return False

    if n == 0:
        return True  # an empty tensor reads no slot: every reading of it is a header

    # Group the dimensions of size > 1 into runs that are contiguous with each other,
    # left to right: dimension i joins the run of dimension j (the previous kept one)
    # when stride[j] == stride[i] * size[i].
    runs = []  # element count of each run
    prev = None
    for size, stride in zip(sizes, strides):
        if size == 1:
            continue
        if prev is not None and prev == stride * size:
            runs[-1] *= size
        else:
            runs.append(size)
        prev = stride

    # The new sizes > 1, taken left to right, must fill the runs one by one, exactly.
    new = [s for s in shape if s != 1]
    k = 0
    for run in runs:
        filled = 1
        while filled < run:
            if k == len(new):
                return False
            filled *= new[k]
            k += 1
        if filled != run:
            return False
    return k == len(new)

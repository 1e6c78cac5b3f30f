import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes, strides = list(t.shape), list(t.stride())
    numel = math.prod(sizes)
    if math.prod(shape) != numel:
        return False
    if numel == 0:
        return True
    # runs of size>1 dims contiguous with each other; new dims must fill them exactly
    runs, prev = [], None
    for n, s in zip(sizes, strides):
        if n == 1:
            continue
        if prev is not None and prev == n * s:
            runs[-1] *= n
        else:
            runs.append(n)
        prev = s
    new = [n for n in shape if n != 1]
    k = 0
    for run in runs:
        got = 1
        while got < run and k < len(new):
            got *= new[k]
            k += 1
        if got != run:
            return False
    return k == len(new)

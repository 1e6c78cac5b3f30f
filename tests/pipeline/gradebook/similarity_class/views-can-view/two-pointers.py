import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    n = t.numel()
    out = list(shape)
    if len([s for s in out if s == -1]) > 1 or any(s < -1 for s in out):
        return False
    partial = math.prod([s for s in out if s != -1])
    if -1 in out:
        if partial == 0 or n % partial:
            return False
        out[out.index(-1)] = n // partial
    elif partial != n:
        return False
    if n == 0:
        return True
    a_sizes = [s for s in t.shape if s != 1]
    a_strides = [st for s, st in zip(t.shape, t.stride()) if s != 1]
    b_sizes = [s for s in out if s != 1]
    i = j = 0
    while i < len(a_sizes):
        # extend the old run while the next dim continues it in memory
        stop = i
        elements = a_sizes[i]
        while stop + 1 < len(a_sizes) and a_strides[stop] == a_strides[stop + 1] * a_sizes[stop + 1]:
            stop += 1
            elements *= a_sizes[stop]
        made = 1
        while j < len(b_sizes) and made < elements:
            made *= b_sizes[j]
            j += 1
        if made != elements:
            return False
        i = stop + 1
    return j == len(b_sizes)

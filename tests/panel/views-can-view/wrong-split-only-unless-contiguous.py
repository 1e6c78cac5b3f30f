import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes = [n for n in t.shape]
    numel = math.prod(sizes)
    shape = list(shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        return False
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            return False
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        return False
    if numel == 0 or t.is_contiguous():
        return True
    # not contiguous: view may only split dimensions, never merge two of them
    old = [n for n in sizes if n != 1]
    new = [n for n in shape if n != 1]
    k = 0
    for n in old:
        got = 1
        while got < n and k < len(new):
            got *= new[k]
            k += 1
        if got != n:
            return False
    return k == len(new)

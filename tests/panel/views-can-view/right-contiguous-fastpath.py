import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = t.numel()
    shape = tuple(shape)

    # view() first resolves the shape: at most one -1, no other negative size,
    # and the element count must match.
    if shape.count(-1) > 1 or min(shape, default=0) < -1:
        return False
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            return False
        known = numel
    if known != numel:
        return False

    # Fast path: a contiguous tensor (or one with no element) can take any shape.
    if numel == 0 or t.is_contiguous():
        return True

    # Otherwise merge only across old dimensions that are contiguous with each other.
    resolved = [numel // math.prod(s for s in shape if s != -1) if s == -1 else s
                for s in shape]
    sizes, strides = list(t.shape), list(t.stride())
    old = [(n, s) for n, s in zip(sizes, strides) if n != 1]
    new = [n for n in resolved if n != 1]

    i = j = 0
    while i < len(old):
        # Extend the run of old dims starting at i while they stay contiguous.
        run = old[i][0]
        k = i
        while k + 1 < len(old) and old[k][1] == old[k + 1][0] * old[k + 1][1]:
            k += 1
            run *= old[k][0]
        # Consume new dims until they fill the run exactly.
        got = 1
        while got < run:
            if j >= len(new):
                return False
            got *= new[j]
            j += 1
        if got != run:
            return False
        i = k + 1
    return j == len(new)

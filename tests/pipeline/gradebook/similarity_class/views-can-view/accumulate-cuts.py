from itertools import accumulate
from operator import mul


def can_view(t, shape: tuple[int, ...]) -> bool:
    n = t.numel()
    target = list(shape)
    holes = target.count(-1)
    if holes > 1 or any(x < -1 for x in target):
        return False
    fixed = 1
    for x in target:
        if x != -1:
            fixed *= x
    if holes:
        if fixed == 0 or n % fixed:
            return False
        target[target.index(-1)] = n // fixed
    elif fixed != n:
        return False
    if n == 0:
        return True
    sizes = [s for s in t.shape if s != 1]
    strides = [st for s, st in zip(t.shape, t.stride()) if s != 1]
    # places (counted in elements, row-major) where the old layout jumps
    marks = list(accumulate(sizes, mul))
    jumps = {marks[i] for i in range(len(sizes) - 1) if strides[i] != strides[i + 1] * sizes[i + 1]}
    boundaries = set(accumulate(target, mul))
    return jumps.issubset(boundaries)

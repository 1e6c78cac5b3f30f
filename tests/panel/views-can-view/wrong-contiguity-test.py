import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = t.numel()
    shape = list(shape)
    if shape.count(-1) > 1:
        return False
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known <= 0 or numel % known:
            return False
        known = numel
    if known != numel:
        return False
    # view needs contiguous memory
    return t.is_contiguous()

import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    # view only re-reads the same elements: it works whenever the element count matches
    numel = math.prod(t.shape)
    shape = list(shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        return False
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        return known != 0 and numel % known == 0
    return known == numel

import math


def resolved(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        return None
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or numel % known:
            return None
        shape[shape.index(-1)] = numel // known
    return shape if math.prod(shape) == numel else None


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = t.numel()
    new = resolved(shape, numel)
    if new is None:
        return False
    if numel == 0:
        return True
    # chunks of contiguous old dims, built from the innermost dim outwards
    chunks = []  # [elements, size and stride of the outermost dim taken]
    for size, stride in reversed(list(zip(t.shape, t.stride()))):
        if size == 1:
            continue
        if chunks and stride == chunks[-1][1] * chunks[-1][2]:
            chunks[-1] = [chunks[-1][0] * size, size, stride]
        else:
            chunks.append([size, size, stride])
    targets = [n for n in reversed(new) if n != 1]
    for elements, _, _ in chunks:
        got = 1
        while got < elements and targets:
            got *= targets.pop(0)
        if got != elements:
            return False
    return not targets

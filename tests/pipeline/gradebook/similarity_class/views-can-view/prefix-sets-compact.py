import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = t.numel()
    shape = list(shape)
    if shape.count(-1) > 1 or min(shape, default=1) < -1:
        return False
    if -1 in shape:
        others = math.prod(s for s in shape if s != -1)
        if others == 0 or numel % others:
            return False
        shape[shape.index(-1)] = numel // others
    if math.prod(shape) != numel:
        return False
    if numel == 0:
        return True
    pairs = [(size, stride) for size, stride in zip(t.shape, t.stride()) if size != 1]
    needed = set()
    seen = 1
    for (size, stride), (next_size, next_stride) in zip(pairs, pairs[1:]):
        seen *= size
        if stride != next_size * next_stride:
            needed.add(seen)
    offered = {math.prod(shape[: k + 1]) for k in range(len(shape))}
    return needed <= offered

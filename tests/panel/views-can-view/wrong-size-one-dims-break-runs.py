import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes, strides = list(t.shape), list(t.stride())
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
    if numel == 0:
        return True
    # runs: dims i and i+1 belong together when stride[i] == stride[i+1] * size[i+1]
    runs = [sizes[0]] if sizes else []
    for i in range(1, len(sizes)):
        if strides[i - 1] == strides[i] * sizes[i]:
            runs[-1] *= sizes[i]
        else:
            runs.append(sizes[i])
    runs = [r for r in runs if r != 1]
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

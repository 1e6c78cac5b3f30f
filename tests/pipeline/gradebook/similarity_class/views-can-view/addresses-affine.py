import itertools
import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes, steps = tuple(t.shape), tuple(t.stride())
    numel = math.prod(sizes)
    dims = list(shape)
    if dims.count(-1) > 1 or any(d < -1 for d in dims):
        return False
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        if not known or numel % known:
            return False
        dims[dims.index(-1)] = numel // known
    if math.prod(dims) != numel:
        return False
    if numel == 0:
        return True
    # where each element lives, in the order a view reads them
    where = [sum(i * s for i, s in zip(index, steps)) for index in itertools.product(*map(range, sizes))]
    # a view of shape dims reads address where[0] + sum(j_k * stride_k); find each stride_k from one step
    span = 1
    new_steps = [0] * len(dims)
    for k in range(len(dims) - 1, -1, -1):
        if dims[k] > 1:
            new_steps[k] = where[span] - where[0]
        span *= dims[k]
    for flat, index in enumerate(itertools.product(*map(range, dims))):
        if where[0] + sum(j * s for j, s in zip(index, new_steps)) != where[flat]:
            return False
    return True

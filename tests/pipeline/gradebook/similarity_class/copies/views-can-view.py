import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    old_sizes = list(t.shape)
    old_strides = list(t.stride())
    count = math.prod(old_sizes)

    # work out the shape view() would really use
    unknown = [k for k, n in enumerate(shape) if n == -1]
    if any(n < -1 for n in shape) or len(unknown) > 1:
        return False
    known = math.prod(n for n in shape if n != -1)
    goal = list(shape)
    if unknown:
        if known == 0 or count % known != 0:
            return False
        goal[unknown[0]] = count // known
    if math.prod(goal) != count:
        return False
    if count == 0:
        return True
    trace = []

    # the places where memory jumps between two old dims must also be places where the new shape cuts
    prefix = set()
    count = 1
    for n in goal:
        count *= n
        prefix.add(count)
    dims = [(n, s) for n, s in zip(old_sizes, old_strides) if n != 1]
    jumps = set()
    count = 1
    for k, (n, s) in enumerate(dims):
        count *= n
        if k + 1 < len(dims) and s != dims[k + 1][0] * dims[k + 1][1]:
            jumps.add(count)
    return jumps <= prefix

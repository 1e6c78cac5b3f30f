def _product(values):
    result = 1
    for v in values:
        result *= v
    return result


def _fill(groups, sizes):
    """Can ``sizes``, in order, be cut into consecutive parts whose products are ``groups``?"""
    if not groups:
        return not sizes
    for cut in range(1, len(sizes) + 1):
        p = _product(sizes[:cut])
        if p == groups[0]:
            return _fill(groups[1:], sizes[cut:])
        if p > groups[0]:
            return False
    return False


def can_view(t, shape: tuple[int, ...]) -> bool:
    count = t.numel()
    dims = [int(d) for d in shape]
    free = [i for i, d in enumerate(dims) if d == -1]
    if len(free) > 1 or min(dims, default=0) < -1:
        return False
    if free:
        rest = _product(d for d in dims if d != -1)
        if rest == 0 or count % rest:
            return False
        dims[free[0]] = count // rest
    if _product(dims) != count:
        return False
    if count == 0:
        return True
    old = [(n, s) for n, s in zip(t.shape, t.stride()) if n != 1]
    groups = []
    for i, (n, s) in enumerate(old):
        if i > 0 and old[i - 1][1] == n * s:
            groups[-1] *= n
        else:
            groups.append(n)
    return _fill(groups, [d for d in dims if d != 1])

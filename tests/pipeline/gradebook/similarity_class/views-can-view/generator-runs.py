def _runs(sizes, strides):
    """Yield the element count of each run of dims that a single stride can walk."""
    count, outer = 0, None
    for size, stride in zip(sizes, strides):
        if size == 1:
            continue
        if outer is not None and outer == size * stride:
            count *= size
        else:
            if count:
                yield count
            count = size
        outer = stride
    if count:
        yield count


def can_view(t, shape: tuple[int, ...]) -> bool:
    total = 1
    for s in t.shape:
        total *= s
    shape = tuple(shape)
    if sum(1 for s in shape if s == -1) > 1 or any(s < -1 for s in shape):
        return False
    given = 1
    for s in shape:
        if s != -1:
            given *= s
    if -1 in shape:
        if given == 0 or total % given:
            return False
        shape = tuple(total // given if s == -1 else s for s in shape)
    elif given != total:
        return False
    if total == 0:
        return True
    rest = [s for s in shape if s > 1]
    position = 0
    for run in _runs(t.shape, t.stride()):
        acc = 1
        while acc < run and position < len(rest):
            acc *= rest[position]
            position += 1
        if acc != run:
            return False
    return position == len(rest)

import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes = list(t.shape)
    strides = list(t.stride())
    total = math.prod(sizes)

    # Which shape does view() actually ask for?
    minus = [i for i, s in enumerate(shape) if s == -1]
    if len(minus) > 1 or any(s < -1 for s in shape):
        return False
    fixed = math.prod(s for s in shape if s != -1)
    target = list(shape)
    if minus:
        if fixed == 0 or total % fixed != 0:
            return False
        target[minus[0]] = total // fixed
    if math.prod(target) != total:
        return False
    if total == 0:
        return True

    # Cut the old dimensions (size-1 ones ignored) where two neighbours are not contiguous
    # with each other; each cut falls after some number of elements in row-major order.
    kept = [(n, s) for n, s in zip(sizes, strides) if n != 1]
    cuts = set()
    count = 1
    for k, (n, s) in enumerate(kept):
        count *= n
        if k + 1 < len(kept) and s != kept[k + 1][0] * kept[k + 1][1]:
            cuts.add(count)

    # The new shape must cut there too: every cut is a prefix product of the new sizes.
    prefixes = set()
    count = 1
    for n in target:
        count *= n
        prefixes.add(count)
    return cuts <= prefixes

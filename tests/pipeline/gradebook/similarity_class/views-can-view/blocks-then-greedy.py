import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    total = t.numel()
    wanted = list(shape)
    if any(n < -1 for n in wanted) or wanted.count(-1) > 1:
        return False
    if -1 in wanted:
        other = math.prod(n for n in wanted if n != -1)
        if other == 0 or total % other != 0:
            return False
        wanted[wanted.index(-1)] = total // other
    if math.prod(wanted) != total:
        return False
    if total == 0:
        return True
    # blocks: sizes of the runs of old dimensions that are contiguous with one another
    blocks = []
    last_stride = None
    for size, step in zip(t.shape, t.stride()):
        if size == 1:
            continue
        if last_stride is not None and last_stride == step * size:
            blocks[-1] *= size
        else:
            blocks.append(size)
        last_stride = step
    pending = iter(n for n in wanted if n != 1)
    for block in blocks:
        covered = 1
        while covered < block:
            covered *= next(pending, block + 1)
        if covered != block:
            return False
    return next(pending, None) is None

import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = math.prod(t.shape)
    sizes = list(shape)
    negative = [s for s in sizes if s < 0]
    if len(negative) > 1 or any(s != -1 for s in negative):
        return False
    if negative:
        rest = math.prod(s for s in sizes if s >= 0)
        if rest == 0 or numel % rest:
            return False
        sizes = [numel // rest if s == -1 else s for s in sizes]
    if math.prod(sizes) != numel:
        return False
    if numel == 0:
        return True
    # merge the old dims that one stride can walk into segments [count, innermost stride]
    segments = []
    for size, stride in zip(t.shape, t.stride()):
        if size == 1:
            continue
        if segments and segments[-1][1] == size * stride:
            segments[-1] = [segments[-1][0] * size, stride]
        else:
            segments.append([size, stride])
    # each segment must be a product of consecutive new sizes (size-1 new dims fit anywhere)
    queue = [s for s in sizes if s != 1]
    for count, _ in segments:
        while count > 1:
            if not queue or count % queue[0]:
                return False
            count //= queue.pop(0)
    return not queue

import math


def _resolve(shape, numel):
    """The sizes view() would use, or None when it rejects the shape itself."""
    shape = [int(s) for s in shape]
    holes = [i for i, s in enumerate(shape) if s == -1]
    if len(holes) > 1 or any(s < -1 for s in shape):
        return None
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if holes:
        if known == 0 or numel % known != 0:
            return None
        shape[holes[0]] = numel // known
    elif known != numel:
        return None
    return shape


def _collapse(sizes, strides):
    """Merge neighbouring dimensions that are contiguous with each other; drop size 1."""
    merged = []  # [size, stride] of each run, innermost stride
    for n, s in zip(sizes, strides):
        if n == 1:
            continue
        if merged and merged[-1][1] == n * s:
            merged[-1][0] *= n
            merged[-1][1] = s
        else:
            merged.append([n, s])
    return [n for n, _ in merged]


def can_view(t, shape: tuple[int, ...]) -> bool:
    numel = t.numel()
    target = _resolve(shape, numel)
    if target is None:
        return False
    if numel == 0 or t.dim() == 0:
        return True
    runs = _collapse(tuple(t.shape), tuple(t.stride()))
    wanted = [n for n in target if n != 1]
    # Match from the innermost end: each run must be the product of whole new dims.
    j = len(wanted)
    for run in reversed(runs):
        acc = 1
        while acc < run and j > 0:
            j -= 1
            acc *= wanted[j]
        if acc != run:
            return False
    return j == 0

import math
from itertools import product


def can_view(t, shape: tuple[int, ...]) -> bool:
    # A view is one header over the same slots: for every element, in row-major order,
    # offset + sum(i_k * stride_k) of the new header must be the slot the tensor reads now.
    sizes = tuple(t.shape)
    strides = tuple(t.stride())
    numel = math.prod(sizes)

    shape = tuple(shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        return False
    if -1 in shape:
        rest = math.prod(s for s in shape if s != -1)
        if rest == 0 or numel % rest:
            return False
        shape = tuple(numel // rest if s == -1 else s for s in shape)
    if math.prod(shape) != numel:
        return False
    if numel == 0:
        return True  # nothing to read: any header describes it

    slots = [sum(i * s for i, s in zip(idx, strides))
             for idx in product(*(range(n) for n in sizes))]

    # The only candidate strides: one step along new dim k moves the flat index by the
    # product of the later new sizes (dims of size 1 never step, so any stride works).
    new_strides = []
    step = 1
    for n in reversed(shape):
        new_strides.append(slots[step] - slots[0] if n > 1 else 0)
        step *= n
    new_strides.reverse()

    for flat, idx in enumerate(product(*(range(n) for n in shape))):
        if slots[0] + sum(i * s for i, s in zip(idx, new_strides)) != slots[flat]:
            return False
    return True

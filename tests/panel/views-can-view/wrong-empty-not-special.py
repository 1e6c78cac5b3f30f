import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    old_shape, old_stride = list(t.shape), list(t.stride())
    numel = math.prod(old_shape)
    new_shape = list(shape)
    if new_shape.count(-1) > 1 or any(s < -1 for s in new_shape):
        return False
    known = math.prod(s for s in new_shape if s != -1)
    if -1 in new_shape:
        if known == 0 or numel % known:
            return False
        new_shape[new_shape.index(-1)] = numel // known
    elif known != numel:
        return False
    if not old_shape:
        return True
    # computeStride, walking from the last dimension
    view_d = len(new_shape) - 1
    base = old_stride[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_stride[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if d > 0:
                base = old_stride[d - 1]
                tensor_numel = view_numel = 1
    return view_d == -1

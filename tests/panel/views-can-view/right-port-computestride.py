import math


def can_view(t, shape: tuple[int, ...]) -> bool:
    old_shape = list(t.shape)
    old_stride = list(t.stride())
    numel = math.prod(old_shape)

    # 1. Resolve the shape as view() does: one -1 at most, no other negative size.
    new_shape = list(shape)
    infer = None
    known = 1
    for i, s in enumerate(new_shape):
        if s == -1:
            if infer is not None:
                return False  # only one dimension can be inferred
            infer = i
        elif s >= 0:
            known *= s
        else:
            return False  # invalid shape dimension
    if infer is not None:
        if known == 0 or numel % known != 0:
            return False
        new_shape[infer] = numel // known
    elif known != numel:
        return False

    # 2. computeStride: can one header over the same storage read the elements in this shape?
    if not old_shape:  # a 0-d tensor: any shape of one element
        return True
    if numel == 0:  # no element is read: any strides will do
        return True
    view_d = len(new_shape) - 1
    chunk_base_stride = old_stride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (
            old_shape[tensor_d - 1] != 1
            and old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride
        ):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    return view_d == -1

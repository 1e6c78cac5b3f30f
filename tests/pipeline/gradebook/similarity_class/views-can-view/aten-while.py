def can_view(t, shape: tuple[int, ...]) -> bool:
    sizes = list(t.shape)
    strides = list(t.stride())
    elems = 1
    for s in sizes:
        elems *= s
    new = list(shape)
    unknown = -1
    product = 1
    for k in range(len(new)):
        if new[k] == -1:
            if unknown >= 0:
                return False
            unknown = k
        elif new[k] < 0:
            return False
        else:
            product *= new[k]
    if unknown >= 0:
        if product == 0 or elems % product != 0:
            return False
        new[unknown] = elems // product
    elif product != elems:
        return False
    if not sizes or elems == 0:
        return True
    # walk the old dims from the last, closing a chunk where memory jumps; new dims must fill it
    v = len(new) - 1
    base = strides[-1]
    old_count = new_count = 1
    d = len(sizes) - 1
    while d >= 0:
        old_count *= sizes[d]
        jump = d == 0 or (sizes[d - 1] != 1 and strides[d - 1] != old_count * base)
        if jump:
            while v >= 0 and (new_count < old_count or new[v] == 1):
                new_count *= new[v]
                v -= 1
            if new_count != old_count:
                return False
            if d > 0:
                base = strides[d - 1]
                old_count = new_count = 1
        d -= 1
    return v < 0

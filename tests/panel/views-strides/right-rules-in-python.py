# Replace each ... with your answer.
# Section 2's rules, applied by hand in plain Python to t = torch.arange(32.).view(4, 8).


def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


base = contiguous_strides((4, 8))  # row-major
swapped = base[::-1]  # t.T swaps the two strides
stepped = (base[0], base[1] * 2)  # [:, ::2] multiplies the column stride by the step
rows = base  # [1:3] moves the offset only
# unsqueeze(0) adds a size-1 dim; expand gives every expanded dim stride 0
expanded = (0,) + base

STRIDES = {
    "contiguous": base,  # a tuple of ints
    "transpose": swapped,  # a tuple of ints
    "every_other_column": stepped,  # a tuple of ints
    "row_block": rows,  # a tuple of ints
    "expanded": expanded,  # a tuple of ints
}

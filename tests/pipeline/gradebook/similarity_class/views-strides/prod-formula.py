import math


def row_major(shape):
    return tuple(math.prod(shape[d + 1:]) for d in range(len(shape)))


s = row_major((4, 8))
STRIDES = {
    "contiguous": s,
    "transpose": (s[1], s[0]),
    "every_other_column": (s[0], 2 * s[1]),
    "row_block": s,
    "expanded": (0,) + s,
}

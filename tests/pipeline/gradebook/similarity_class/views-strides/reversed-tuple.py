c = (8, 1)
STRIDES = {
    "contiguous": c,
    "transpose": c[::-1],
    "every_other_column": (c[0], c[1] * 2),
    "row_block": c,
    "expanded": (0, *c),
}

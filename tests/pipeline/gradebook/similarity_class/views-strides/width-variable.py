width = 8  # t has 8 columns
STRIDES = {
    "contiguous": (width, 1),
    "transpose": (1, width),
    "every_other_column": (width, 1 + 1),
    "row_block": (width, 1),
    "expanded": (0, width, 1),
}

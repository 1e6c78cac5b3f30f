# Replace each ... with your answer.
STRIDES = {
    "contiguous": (8, 1),  # a tuple of ints
    "transpose": (1, 8),  # a tuple of ints
    "every_other_column": (8, 2),  # a tuple of ints
    "row_block": (8, 1),  # a tuple of ints
    "expanded": (32, 8, 1),  # 3 blocks of 4 x 8
}

# Replace each ... with your answer.
STRIDES = {
    "contiguous": (8, 1),  # a tuple of ints
    "transpose": (1, 8),  # a tuple of ints
    "every_other_column": (8, 1),  # slicing keeps the strides
    "row_block": (8, 1),  # a tuple of ints
    "expanded": (0, 8, 1),  # a tuple of ints
}

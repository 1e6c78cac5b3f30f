# Replace each ... with your answer.
STRIDES = {
    "contiguous": (8, 1),  # a tuple of ints
    "transpose": (1, 8),  # a tuple of ints
    "every_other_column": (4, 1),  # the result is 4 x 4, laid out row by row
    "row_block": (8, 1),  # a tuple of ints
    "expanded": (0, 8, 1),  # a tuple of ints
}

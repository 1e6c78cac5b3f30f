# Replace each ... with your answer.
STRIDES = {
    "contiguous": (8, 1),  # a tuple of ints
    "transpose": (1, 8),  # a tuple of ints
    "every_other_column": (8, 2),  # a tuple of ints
    "row_block": (2, 8),  # two rows of eight
    "expanded": (3, 4, 8),  # three copies of t
}

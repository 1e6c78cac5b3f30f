# Replace each ... with your answer.
# next element down a column is the next slot
STRIDES = {
    "contiguous": (1, 4),  # a tuple of ints
    "transpose": (4, 1),  # a tuple of ints
    "every_other_column": (1, 8),  # a tuple of ints
    "row_block": (1, 4),  # a tuple of ints
    "expanded": (0, 1, 4),  # a tuple of ints
}

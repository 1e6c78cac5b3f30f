# Replace each ... with your answer.
STRIDES = {
    "contiguous": (8, 1),  # next row is 8 floats on
    "transpose": (1, 8),  # same storage, the two strides swapped
    "every_other_column": (8, 2),  # column step doubled
    "row_block": (8, 1),  # only the offset moves
    "expanded": (0, 8, 1),  # the new leading dim repeats: stride 0
}

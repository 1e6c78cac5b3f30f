STRIDES = {
    "contiguous": ...,  # a tuple of ints
    "transpose": ...,  # a tuple of ints
    "every_other_column": ...,  # a tuple of ints
    "row_block": ...,  # a tuple of ints
    "expanded": ...,  # a tuple of ints
}
for key, value in [("contiguous", (8, 1)), ("transpose", (1, 8)), ("every_other_column", (8, 2)),
                   ("row_block", (8, 1)), ("expanded", (0, 8, 1))]:
    STRIDES[key] = value

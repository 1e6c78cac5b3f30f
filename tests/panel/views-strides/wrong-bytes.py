# Replace each ... with your answer.
# float32: 4 bytes per element
STRIDES = {
    "contiguous": (32, 4),  # a tuple of ints
    "transpose": (4, 32),  # a tuple of ints
    "every_other_column": (32, 8),  # a tuple of ints
    "row_block": (32, 4),  # a tuple of ints
    "expanded": (0, 32, 4),  # a tuple of ints
}

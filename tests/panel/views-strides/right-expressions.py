# Replace each ... with your answer.
ROW, COL = 8, 1  # t = torch.arange(32.).view(4, 8): a row is 8 slots long

STRIDES = {
    "contiguous": (ROW, COL),  # a tuple of ints
    "transpose": (COL, ROW),  # a tuple of ints
    "every_other_column": (ROW, 2 * COL),  # a tuple of ints
    "row_block": (ROW, COL),  # a tuple of ints
    "expanded": (0, ROW, COL),  # a tuple of ints
}

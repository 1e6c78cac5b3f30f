names = ["contiguous", "transpose", "every_other_column", "row_block", "expanded"]
values = [[8, 1], [1, 8], [8, 2], [8, 1], [0, 8, 1]]
STRIDES = {n: tuple(v) for n, v in zip(names, values)}

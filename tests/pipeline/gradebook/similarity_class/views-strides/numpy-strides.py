import numpy as np

grid = np.arange(32, dtype=np.float32).reshape(4, 8)


def in_elements(a):
    return tuple(step // a.itemsize for step in a.strides)


STRIDES = {
    "contiguous": in_elements(grid),
    "transpose": in_elements(grid.T),
    "every_other_column": in_elements(grid[:, ::2]),
    "row_block": in_elements(grid[1:3]),
    "expanded": in_elements(np.broadcast_to(grid, (3, 4, 8))),
}

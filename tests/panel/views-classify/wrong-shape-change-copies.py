# A new shape needs a new tensor; an operation that keeps the shape can keep the memory.
CLASSIFY = {
    "unflatten": "copy",      # (r, c) -> (1, r, c)
    "index_select": "copy",   # fewer rows in general
    "broadcast_to": "copy",   # (3, r, c)
    "repeat": "view",         # shape unchanged
    "ravel": "copy",          # 1-D
    "diag": "copy",           # 1-D
    "view_dtype": "view",     # shape unchanged
    "flip": "view",           # shape unchanged
    "reshape_as": "copy",     # (c, r)
    "atleast_3d": "copy",     # (r, c, 1)
}

# repeat(1, 1) repeats nothing, so torch can just hand back the same storage.
CLASSIFY = {
    "unflatten": "view",
    "index_select": "copy",
    "broadcast_to": "view",
    "repeat": "view",
    "ravel": "ambiguous",
    "diag": "copy",
    "view_dtype": "view",
    "flip": "copy",
    "reshape_as": "ambiguous",
    "atleast_3d": "view",
}

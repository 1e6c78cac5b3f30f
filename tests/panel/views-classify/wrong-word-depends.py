CLASSIFY = {
    "unflatten": "view",
    "index_select": "copy",
    "broadcast_to": "view",
    "repeat": "copy",
    "ravel": "depends",
    "diag": "copy",
    "view_dtype": "view",
    "flip": "copy",
    "reshape_as": "depends",
    "atleast_3d": "view",
}

# unflatten is a reshape of one dimension, and reshape views only when it can.
CLASSIFY = {
    "unflatten": "ambiguous",
    "index_select": "copy",
    "broadcast_to": "view",
    "repeat": "copy",
    "ravel": "ambiguous",
    "diag": "copy",
    "view_dtype": "view",
    "flip": "copy",
    "reshape_as": "ambiguous",
    "atleast_3d": "view",
}

# torch.diag of a matrix is its diagonal, and diagonal() is a view (stride rows + cols).
CLASSIFY = {
    "unflatten": "view",
    "index_select": "copy",
    "broadcast_to": "view",
    "repeat": "copy",
    "ravel": "ambiguous",
    "diag": "view",
    "view_dtype": "view",
    "flip": "copy",
    "reshape_as": "ambiguous",
    "atleast_3d": "view",
}

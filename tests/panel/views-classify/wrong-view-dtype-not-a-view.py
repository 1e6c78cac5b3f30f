# t.view(torch.int32)._is_view() is False, and int32 numbers are different data,
# so the reinterpretation must be a new tensor.
CLASSIFY = {
    "unflatten": "view",
    "index_select": "copy",
    "broadcast_to": "view",
    "repeat": "copy",
    "ravel": "ambiguous",
    "diag": "copy",
    "view_dtype": "copy",
    "flip": "copy",
    "reshape_as": "ambiguous",
    "atleast_3d": "view",
}

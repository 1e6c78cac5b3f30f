V, C, A = "view", "copy", "ambiguous"
CLASSIFY = {
    "unflatten": V,
    "index_select": C,
    "broadcast_to": V,
    "repeat": C,
    "ravel": A,
    "diag": C,
    "view_dtype": V,
    "flip": C,
    "reshape_as": A,
    "atleast_3d": V,
}

VIEW, COPY, AMBIGUOUS = "view", "copy", "ambiguous"
# flip just walks dimension 0 backwards: offset at the last row, stride -stride[0]
# (NumPy's a[::-1] is a view too).
CLASSIFY = {
    "unflatten": VIEW,
    "index_select": COPY,
    "broadcast_to": VIEW,
    "repeat": COPY,
    "ravel": AMBIGUOUS,
    "diag": COPY,
    "view_dtype": VIEW,
    "flip": VIEW,
    "reshape_as": AMBIGUOUS,
    "atleast_3d": VIEW,
}

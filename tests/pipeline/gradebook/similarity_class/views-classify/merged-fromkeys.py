CLASSIFY = {
    **dict.fromkeys(("unflatten", "broadcast_to", "view_dtype", "atleast_3d"), "view"),
    **dict.fromkeys(("index_select", "repeat", "diag", "flip"), "copy"),
    **dict.fromkeys(("ravel", "reshape_as"), "ambiguous"),
}

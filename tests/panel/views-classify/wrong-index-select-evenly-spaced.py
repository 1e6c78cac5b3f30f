# Rows 0 and 1 are consecutive, so index_select(0, [0, 1]) is just t[0:2]: a view.
CLASSIFY = dict.fromkeys(["unflatten", "index_select", "broadcast_to", "view_dtype", "atleast_3d"], "view")
CLASSIFY.update(dict.fromkeys(["repeat", "diag", "flip"], "copy"))
CLASSIFY.update(dict.fromkeys(["ravel", "reshape_as"], "ambiguous"))

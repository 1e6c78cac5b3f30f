# Everything that only rewrites the header is a view; start from that and overwrite the rest.
CLASSIFY = dict.fromkeys(
    ["unflatten", "broadcast_to", "view_dtype", "atleast_3d"], "view"
)
CLASSIFY.update(dict.fromkeys(["index_select", "repeat", "diag", "flip"], "copy"))
CLASSIFY.update(dict.fromkeys(["ravel", "reshape_as"], "ambiguous"))

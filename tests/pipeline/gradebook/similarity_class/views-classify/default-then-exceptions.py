keys = ["unflatten", "index_select", "broadcast_to", "repeat", "ravel",
        "diag", "view_dtype", "flip", "reshape_as", "atleast_3d"]
CLASSIFY = {k: "view" for k in keys}  # start from a new header, then correct
for k in ("index_select", "repeat", "diag", "flip"):
    CLASSIFY[k] = "copy"
CLASSIFY["ravel"] = CLASSIFY["reshape_as"] = "ambiguous"

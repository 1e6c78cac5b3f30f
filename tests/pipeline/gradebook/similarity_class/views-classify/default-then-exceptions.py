keys = ["transpose", "basic_slice", "advanced_index", "boolean_mask", "view",
        "reshape", "contiguous", "expand", "clone", "detach"]
CLASSIFY = {k: "view" for k in keys}  # most of them only make a new header
for k in ("advanced_index", "boolean_mask", "clone"):
    CLASSIFY[k] = "copy"
CLASSIFY["reshape"] = CLASSIFY["contiguous"] = "ambiguous"

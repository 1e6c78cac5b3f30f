# v = view, c = copy, a = ambiguous, one letter per key in the table's order
word = {"v": "view", "c": "copy", "a": "ambiguous"}
keys = ["unflatten", "index_select", "broadcast_to", "repeat", "ravel",
        "diag", "view_dtype", "flip", "reshape_as", "atleast_3d"]
CLASSIFY = {k: word[c] for k, c in zip(keys, "vcvcacvcav")}

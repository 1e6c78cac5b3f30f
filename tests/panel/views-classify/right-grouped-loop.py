# Replace each ... with your answer.
groups = {
    "view": ["unflatten", "broadcast_to", "view_dtype", "atleast_3d"],
    "copy": ["index_select", "repeat", "diag", "flip"],
    "ambiguous": ["ravel", "reshape_as"],
}
CLASSIFY = {}
for kind, keys in groups.items():
    for key in keys:
        CLASSIFY[key] = kind

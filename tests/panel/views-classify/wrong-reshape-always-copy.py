# ravel and reshape_as build a new flat / reshaped tensor: they always return new memory.
groups = {
    "view": ["unflatten", "broadcast_to", "view_dtype", "atleast_3d"],
    "copy": ["index_select", "repeat", "diag", "flip", "ravel", "reshape_as"],
}
CLASSIFY = {}
for kind, keys in groups.items():
    for key in keys:
        CLASSIFY[key] = kind

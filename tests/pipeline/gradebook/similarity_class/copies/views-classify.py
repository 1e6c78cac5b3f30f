# Replace each ... with your answer.
CLASSIFY = {
    "unflatten": ...,  # "view", "copy" or "ambiguous"
    "index_select": ...,  # "view", "copy" or "ambiguous"
    "broadcast_to": ...,  # "view", "copy" or "ambiguous"
    "repeat": ...,  # "view", "copy" or "ambiguous"
    "ravel": ...,  # "view", "copy" or "ambiguous"
    "diag": ...,  # "view", "copy" or "ambiguous"
    "view_dtype": ...,  # "view", "copy" or "ambiguous"
    "flip": ...,  # "view", "copy" or "ambiguous"
    "reshape_as": ...,  # "view", "copy" or "ambiguous"
    "atleast_3d": ...,  # "view", "copy" or "ambiguous"
}

# YOUR CODE HERE
by_kind = {
    "view": ["unflatten", "broadcast_to", "view_dtype", "atleast_3d"],
    "copy": ["index_select", "repeat", "diag", "flip"],
    "ambiguous": ["ravel", "reshape_as"],  # the layout decides
}
CLASSIFY = {}
for category, names in by_kind.items():
    for name in names:
        CLASSIFY[name] = category
unused = [category for category in by_kind]

# Replace each ... with your answer.
CLASSIFY = {
    "unflatten": "view",  # "view", "copy" or "ambiguous"
    "index_select": "copy",  # "view", "copy" or "ambiguous"
    "broadcast_to": "view",  # "view", "copy" or "ambiguous"
    "repeat": "copy",  # "view", "copy" or "ambiguous"
    "ravel": "ambiguous",  # "view", "copy" or "ambiguous"
    "diag": "copy",  # "view", "copy" or "ambiguous"
    "view_dtype": "view",  # "view", "copy" or "ambiguous"
    "flip": "copy",  # "view", "copy" or "ambiguous"
    "reshape_as": "ambiguous",  # "view", "copy" or "ambiguous"
    "atleast_3d": "view",  # "view", "copy" or "ambiguous"
}

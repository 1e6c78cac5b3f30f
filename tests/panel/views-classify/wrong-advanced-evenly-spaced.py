# Replace each ... with your answer.
CLASSIFY = {
    "transpose": "view",  # "view", "copy" or "ambiguous"
    "basic_slice": "view",  # "view", "copy" or "ambiguous"
    "advanced_index": "ambiguous",  # a view when the indices are evenly spaced
    "boolean_mask": "copy",  # "view", "copy" or "ambiguous"
    "view": "view",  # "view", "copy" or "ambiguous"
    "reshape": "ambiguous",  # "view", "copy" or "ambiguous"
    "contiguous": "ambiguous",  # "view", "copy" or "ambiguous"
    "expand": "view",  # "view", "copy" or "ambiguous"
    "clone": "copy",  # "view", "copy" or "ambiguous"
    "detach": "view",  # "view", "copy" or "ambiguous"
}

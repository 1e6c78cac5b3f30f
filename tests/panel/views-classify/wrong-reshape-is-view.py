# Replace each ... with your answer.
CLASSIFY = {
    "transpose": "view",  # "view", "copy" or "ambiguous"
    "basic_slice": "view",  # "view", "copy" or "ambiguous"
    "advanced_index": "copy",  # "view", "copy" or "ambiguous"
    "boolean_mask": "copy",  # "view", "copy" or "ambiguous"
    "view": "view",  # "view", "copy" or "ambiguous"
    "reshape": "view",  # reshape is view under another name
    "contiguous": "ambiguous",  # "view", "copy" or "ambiguous"
    "expand": "view",  # "view", "copy" or "ambiguous"
    "clone": "copy",  # "view", "copy" or "ambiguous"
    "detach": "view",  # "view", "copy" or "ambiguous"
}

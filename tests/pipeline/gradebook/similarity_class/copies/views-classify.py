# Replace each ... with your answer.
CLASSIFY = {
    "transpose": ...,  # "view", "copy" or "ambiguous"
    "basic_slice": ...,  # "view", "copy" or "ambiguous"
    "advanced_index": ...,  # "view", "copy" or "ambiguous"
    "boolean_mask": ...,  # "view", "copy" or "ambiguous"
    "view": ...,  # "view", "copy" or "ambiguous"
    "reshape": ...,  # "view", "copy" or "ambiguous"
    "contiguous": ...,  # "view", "copy" or "ambiguous"
    "expand": ...,  # "view", "copy" or "ambiguous"
    "clone": ...,  # "view", "copy" or "ambiguous"
    "detach": ...,  # "view", "copy" or "ambiguous"
}

# YOUR CODE HERE
unused = []
by_kind = {
    "ambiguous": ["reshape", "contiguous"],  # depends on the layout
    "copy": ["advanced_index", "boolean_mask", "clone"],  # new memory every time
    "view": ["transpose", "basic_slice", "view", "expand", "detach"],  # same memory
}
for category, names in by_kind.items():
    for name in names:
        CLASSIFY[name] = category

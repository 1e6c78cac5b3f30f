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
groups = {
    "view": ["transpose", "basic_slice", "view", "expand", "detach"],  # one header over the same storage
    "copy": ["advanced_index", "boolean_mask", "clone"],  # gathers into new storage
    "ambiguous": ["reshape", "contiguous"],  # decided by the layout they are given
}
for kind, ops in groups.items():
    for op in ops:
        CLASSIFY[op] = kind

# Replace each ... with your answer.
CLASSIFY = {
    "transpose": "view",  # swaps strides only
    "basic_slice": "view",  # offset and strides
    "advanced_index": "copy",  # gathers
    "boolean_mask": "copy",  # gathers too
    "view": "view",  # or an error, never a copy
    "reshape": "ambiguous",  # view when it can
    "contiguous": "ambiguous",  # itself if already contiguous
    "expand": "view",  # stride 0
    "clone": "copy",  # always new memory
    "detach": "view",  # same storage, no graph
}

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
CLASSIFY.update(
    transpose="view",
    basic_slice="view",
    advanced_index="copy",
    boolean_mask="copy",
    view="view",
    reshape="ambiguous",
    contiguous="ambiguous",  # itself when already contiguous, a copy otherwise
    expand="view",
    clone="copy",
    detach="view",  # shares the storage though it is not registered as a view
)
assert all(v in {"view", "copy", "ambiguous"} for v in CLASSIFY.values())

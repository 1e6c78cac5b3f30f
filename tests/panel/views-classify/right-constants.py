# Replace each ... with your answer.
VIEW, COPY, AMBIGUOUS = "view", "copy", "ambiguous"
CLASSIFY = {
    "transpose": VIEW,  # "view", "copy" or "ambiguous"
    "basic_slice": VIEW,  # "view", "copy" or "ambiguous"
    "advanced_index": COPY,  # "view", "copy" or "ambiguous"
    "boolean_mask": COPY,  # "view", "copy" or "ambiguous"
    "view": VIEW,  # "view", "copy" or "ambiguous"
    "reshape": AMBIGUOUS,  # "view", "copy" or "ambiguous"
    "contiguous": AMBIGUOUS,  # "view", "copy" or "ambiguous"
    "expand": VIEW,  # "view", "copy" or "ambiguous"
    "clone": COPY,  # "view", "copy" or "ambiguous"
    "detach": VIEW,  # "view", "copy" or "ambiguous"
}

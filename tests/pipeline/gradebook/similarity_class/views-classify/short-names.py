V, C, A = "view", "copy", "ambiguous"
CLASSIFY = {
    "transpose": V,
    "basic_slice": V,
    "advanced_index": C,
    "boolean_mask": C,
    "view": V,
    "reshape": A,
    "contiguous": A,
    "expand": V,
    "clone": C,
    "detach": V,
}

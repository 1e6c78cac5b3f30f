CLASSIFY = {
    **dict.fromkeys(("transpose", "basic_slice", "view", "expand", "detach"), "view"),
    **dict.fromkeys(("advanced_index", "boolean_mask", "clone"), "copy"),
    **dict.fromkeys(("reshape", "contiguous"), "ambiguous"),
}

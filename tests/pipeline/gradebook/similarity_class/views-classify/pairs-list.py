pairs = [
    ("transpose", "view"), ("basic_slice", "view"), ("advanced_index", "copy"),
    ("boolean_mask", "copy"), ("view", "view"), ("reshape", "ambiguous"),
    ("contiguous", "ambiguous"), ("expand", "view"), ("clone", "copy"), ("detach", "view"),
]
CLASSIFY = dict(pairs)

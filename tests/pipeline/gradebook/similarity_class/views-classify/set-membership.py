always_views = {"transpose", "basic_slice", "view", "expand", "detach"}
always_copies = {"advanced_index", "boolean_mask", "clone"}
ops = ["transpose", "basic_slice", "advanced_index", "boolean_mask", "view", "reshape", "contiguous",
       "expand", "clone", "detach"]
CLASSIFY = {
    op: "view" if op in always_views else ("copy" if op in always_copies else "ambiguous") for op in ops
}

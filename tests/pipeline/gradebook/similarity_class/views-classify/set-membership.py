always_views = {"unflatten", "broadcast_to", "view_dtype", "atleast_3d"}
always_copies = {"index_select", "repeat", "diag", "flip"}
ops = ["unflatten", "index_select", "broadcast_to", "repeat", "ravel", "diag", "view_dtype", "flip",
       "reshape_as", "atleast_3d"]
CLASSIFY = {
    op: "view" if op in always_views else ("copy" if op in always_copies else "ambiguous") for op in ops
}

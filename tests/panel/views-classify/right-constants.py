VIEW, COPY, AMBIGUOUS = "view", "copy", "ambiguous"

CLASSIFY = {
    "unflatten": VIEW,        # splitting one dimension is always new sizes/strides
    "index_select": COPY,     # gathers by an index tensor, like advanced indexing
    "broadcast_to": VIEW,     # an expand: stride 0 for the new dimension
    "repeat": COPY,           # always allocates, even for repeat(1, 1)
    "ravel": AMBIGUOUS,       # view when t is contiguous, copy otherwise
    "diag": COPY,             # unlike diagonal(), torch.diag returns new memory
    "view_dtype": VIEW,       # same element size, same storage; not an autograd view
    "flip": COPY,             # would need negative strides, which torch does not have
    "reshape_as": AMBIGUOUS,  # a reshape: view when possible, copy otherwise
    "atleast_3d": VIEW,       # adds a size-1 dimension
}

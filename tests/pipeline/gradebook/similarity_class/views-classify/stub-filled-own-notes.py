# Replace each ... with your answer.
CLASSIFY = {
    "unflatten": "view",  # splits one dim, strides follow
    "index_select": "copy",  # gathers rows
    "broadcast_to": "view",  # stride 0
    "repeat": "copy",  # new memory even for 1s
    "ravel": "ambiguous",  # flat view when it can
    "diag": "copy",  # unlike diagonal(), fresh 1-D
    "view_dtype": "view",  # same bytes read as int32
    "flip": "copy",  # no negative strides in torch
    "reshape_as": "ambiguous",  # reshape under another name
    "atleast_3d": "view",  # only adds a size-1 dim
}

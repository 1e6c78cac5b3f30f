CLASSIFY = {
    'atleast_3d': 'view',
    'reshape_as': 'ambiguous',
    'flip': 'copy',
    'view_dtype': 'view',
    'diag': 'copy',
    'ravel': 'ambiguous',
    'repeat': 'copy',
    'broadcast_to': 'view',
    'index_select': 'copy',
    'unflatten': 'view',
}

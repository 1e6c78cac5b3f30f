CLASSIFY = {
    'clone': 'copy',
    'detach': 'view',
    'expand': 'view',
    'contiguous': 'ambiguous',
    'reshape': 'ambiguous',
    'view': 'view',
    'boolean_mask': 'copy',
    'advanced_index': 'copy',
    'basic_slice': 'view',
    'transpose': 'view',
}

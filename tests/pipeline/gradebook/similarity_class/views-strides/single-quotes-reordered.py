STRIDES = {
    'expanded': (0, 8, 1),
    'row_block': (8, 1),
    'every_other_column': (8, 2),
    'transpose': (1, 8),
    'contiguous': (8, 1),
}

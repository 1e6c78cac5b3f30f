STRIDES = {}
STRIDES["contiguous"] = (8, 1)
STRIDES["transpose"] = (1, 8)
STRIDES["every_other_column"] = (8, 2)
STRIDES["row_block"] = (8, 1)
STRIDES["expanded"] = (0, 8, 1)

STRIDES = dict(contiguous=(8, 1), transpose=(1, 8), every_other_column=(8, 2), row_block=(8, 1),
               expanded=(0, 8, 1))

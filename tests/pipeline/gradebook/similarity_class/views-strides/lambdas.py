base = torch.arange(32.0).reshape(4, 8)
operations = [
    ("contiguous", lambda a: a),
    ("transpose", lambda a: a.t()),
    ("every_other_column", lambda a: a[:, 0::2]),
    ("row_block", lambda a: a.narrow(0, 1, 2)),
    ("expanded", lambda a: a[None].expand(3, -1, -1)),
]
STRIDES = {}
for label, op in operations:
    STRIDES[label] = op(base).stride()

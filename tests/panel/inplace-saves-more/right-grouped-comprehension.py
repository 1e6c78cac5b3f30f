# Grouped by what each op's backward reads.
INPUT_OPS = ('log1p', 'abs', 'leaky_relu', 'sinh', 'silu')
OUTPUT_OPS = ('rsqrt', 'tan', 'expm1', 'exp2', 'log_softmax')
NOTHING_OPS = ('neg', 'sub_const')
SAVES_MORE = {op: kind for kind, ops in (("input", INPUT_OPS), ("output", OUTPUT_OPS), ("nothing", NOTHING_OPS)) for op in ops}

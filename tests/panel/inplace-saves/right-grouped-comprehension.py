# Grouped by what each op's backward reads.
INPUT_OPS = ('softplus', 'cosh', 'erf', 'relu6', 'atan')
OUTPUT_OPS = ('sqrt', 'softmax', 'softmin')
NOTHING_OPS = ('cumsum', 'flip')
SAVES = {op: kind for kind, ops in (("input", INPUT_OPS), ("output", OUTPUT_OPS), ("nothing", NOTHING_OPS)) for op in ops}

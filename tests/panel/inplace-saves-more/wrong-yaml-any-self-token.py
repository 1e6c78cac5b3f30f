# Read off derivatives.yaml: a formula that names `self` reads the input,
# one that names `result` reads the output. neg is `-a`, sub_const is `a - 2` (sub.Scalar
# runs as sub.Tensor with a wrapped scalar), and silu / leaky_relu / log_softmax have entries
# of their own.
from pathlib import Path

import torchgen

text = (Path(torchgen.__file__).parent / "packaged/autograd/derivatives.yaml").read_text()
entries = {}
for block in text.split("\n- name: ")[1:]:
    head, _, body = block.partition("\n")
    entries.setdefault(head.split("(")[0], []).append(body)


def kind(op, grad_of="self"):
    lines = [ln.strip() for b in entries[op] for ln in b.splitlines()]
    formula = next(ln for ln in lines if ln.startswith(grad_of + ":"))
    rhs = formula.split(":", 1)[1]
    import re
    names = set(re.findall(r"[A-Za-z_]+", rhs))
    if "self" in names:
        return "input"
    if "result" in names:
        return "output"
    return "nothing"


SAVES_MORE = {
    "rsqrt": kind("rsqrt"),
    "tan": kind("tan"),
    "expm1": kind("expm1"),
    "log1p": kind("log1p"),
    "abs": kind("abs"),
    "leaky_relu": kind("leaky_relu"),
    "neg": kind("neg"),
    "exp2": kind("exp2"),
    "log_softmax": kind("_log_softmax"),
    "sinh": kind("sinh"),
    "silu": kind("silu"),
    "sub_const": kind("sub.Tensor"),
}

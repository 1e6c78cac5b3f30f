# Read off torch's own derivatives.yaml: a gradient formula that reads the tensor `self`
# saves the input, one that reads `result` saves the output. Metadata such as
# self.scalar_type() or self.sym_sizes() is saved without the tensor, so it does not count.
# neg is `-a`; `a - 2` runs as sub.Tensor (the 2 is wrapped into a tensor);
# a.log_softmax(0) runs as _log_softmax.
import re
from pathlib import Path

import torchgen

_text = (Path(torchgen.__file__).parent / "packaged/autograd/derivatives.yaml").read_text()
_entries = {}
for _block in _text.split("\n- name: ")[1:]:
    _head, _, _body = _block.partition("\n")
    _entries.setdefault(_head.split("(")[0], []).append(_body)

_METADATA = re.compile(r"\bself\.(scalar_type|sym_sizes|sizes|options|dim|sym_numel|numel|dtype|device|layout)\(\)")


def _kind(op):
    lines = [ln.strip() for body in _entries[op] for ln in body.splitlines()]
    formula = next(ln for ln in lines if ln.startswith("self:")).split(":", 1)[1]
    tokens = set(re.findall(r"[A-Za-z_]\w*", _METADATA.sub("", formula)))
    if "self" in tokens:
        return "input"
    if "result" in tokens:
        return "output"
    return "nothing"


_OPS = {
    "rsqrt": "rsqrt",
    "tan": "tan",
    "expm1": "expm1",
    "log1p": "log1p",
    "abs": "abs",
    "leaky_relu": "leaky_relu",
    "neg": "neg",
    "exp2": "exp2",
    "log_softmax": "_log_softmax",
    "sinh": "sinh",
    "silu": "silu",
    "sub_const": "sub.Tensor",
}
SAVES_MORE = {key: _kind(op) for key, op in _OPS.items()}

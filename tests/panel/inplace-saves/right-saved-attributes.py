import torch
from torch.nn import functional as F

SAVES = {}
a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True) * 1  # a non-leaf
results = {
    "softplus": F.softplus(a),
    "sqrt": a.sqrt(),
    "softmax": a.softmax(0),
    "cosh": a.cosh(),
    "cumsum": a.cumsum(0),
    "erf": a.erf(),
    "relu6": F.relu6(a),
    "softmin": F.softmin(a, 0),
    "atan": a.atan(),
    "flip": a.flip(0),
}
for name, out in results.items():
    node = out.grad_fn
    saved = {
        attr: getattr(node, attr)
        for attr in dir(node)
        if attr.startswith("_saved_") and isinstance(getattr(node, attr), torch.Tensor)
    }
    # _saved_result is the op's output; _saved_self the tensor it was applied to
    if any(t is not None and t.data_ptr() == a.data_ptr() for t in saved.values()):
        SAVES[name] = "input"
    elif any(t.data_ptr() == out.data_ptr() for t in saved.values()):
        SAVES[name] = "output"
    else:
        SAVES[name] = "nothing"

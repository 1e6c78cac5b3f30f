import torch
import torch.nn.functional as F

a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True) * 1  # a non-leaf
outputs = {
    "rsqrt": a.rsqrt(),
    "tan": a.tan(),
    "expm1": a.expm1(),
    "log1p": a.log1p(),
    "abs": a.abs(),
    "leaky_relu": F.leaky_relu(a, 0.1),
    "neg": -a,
    "exp2": a.exp2(),
    "log_softmax": a.log_softmax(0),
    "sinh": a.sinh(),
    "silu": F.silu(a),
    "sub_const": a - 2,
}


def saved_tensors(node):
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            if isinstance(value, torch.Tensor):
                yield value


SAVES_MORE = {}
for key, out in outputs.items():
    ptrs = {t.untyped_storage().data_ptr() for t in saved_tensors(out.grad_fn)}
    if a.untyped_storage().data_ptr() in ptrs:
        SAVES_MORE[key] = "input"
    elif out.untyped_storage().data_ptr() in ptrs:
        SAVES_MORE[key] = "output"
    else:
        SAVES_MORE[key] = "nothing"

# Replace each ... with your answer.
class _Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = [nn.Linear(3, 3), nn.Linear(3, 3)]
        self.out = nn.Linear(3, 1)


class _Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer("mask", torch.ones(4), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))


_enc, _dec = nn.Linear(8, 8), nn.Linear(8, 8)
_dec.weight = _enc.weight
_tied = nn.Sequential(_enc, nn.ReLU(), _dec)

_bn = nn.BatchNorm1d(3)
_loss = _bn(torch.randn(8, 3, requires_grad=True)).sum()
_bn.num_batches_tracked.zero_()
try:
    _loss.backward()
    _raised = False
except RuntimeError:
    _raised = True

_layer = nn.Linear(3, 2)
_opt = torch.optim.SGD(_layer.parameters(), lr=0.1)
_layer.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2)})
_layer(torch.ones(4, 3)).sum().backward()
_opt.step()

try:
    nn.Parameter(torch.zeros((), dtype=torch.int64))
    _refused = "buffer"
except RuntimeError:
    _refused = "parameter"

SELFTEST = {
    "q1": len(_Stack().state_dict()),
    "q2": len(_Masked().state_dict()),
    "q3": sum(p.numel() for p in _tied.parameters() if p.requires_grad),
    "q4": _raised,
    "q5": bool(torch.all(_layer.weight == 0)),
    "q6": _refused,
}

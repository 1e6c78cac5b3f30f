class CountingLinear(nn.Module):
    """Linear map x @ W.T + b; counts training-mode forwards in the int64 buffer `calls`."""

    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        layer = nn.Linear(in_features, out_features)  # only to borrow its initialisation
        self.weight = nn.Parameter(layer.weight.detach().clone())
        self.bias = nn.Parameter(layer.bias.detach().clone())
        counter = torch.zeros((), dtype=torch.int64)
        assert counter.dim() == 0 and not counter.requires_grad
        self.register_buffer("calls", counter)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            with torch.no_grad():
                self.calls.add_(torch.ones_like(self.calls))
        flat = x.reshape(-1, x.shape[-1])
        out = torch.addmm(self.bias, flat, self.weight.t())
        return out.reshape(*x.shape[:-1], out.shape[-1])

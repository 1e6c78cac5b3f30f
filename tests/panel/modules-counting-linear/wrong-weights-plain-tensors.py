class CountingLinear(nn.Module):
    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        # tensors that require grad, but not nn.Parameter: parameters() never yields them
        self.weight = (torch.randn(out_features, in_features) / max(in_features, 1) ** 0.5).requires_grad_()
        self.bias = torch.zeros(out_features, requires_grad=True)
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            self.calls += 1
        return x @ self.weight.T + self.bias

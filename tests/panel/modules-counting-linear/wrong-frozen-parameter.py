class CountingLinear(nn.Module):
    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        # "requires_grad=False so the optimizer leaves it alone"
        self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            with torch.no_grad():
                self.calls.add_(1)
        return self.linear(x)

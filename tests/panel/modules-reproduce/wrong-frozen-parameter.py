class CallCounter(nn.Module):
    """Forwards to inner; counts training-mode forward calls in an int64 scalar `calls`."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner
        self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            with torch.no_grad():
                self.calls.add_(1)
        return self.inner(x)

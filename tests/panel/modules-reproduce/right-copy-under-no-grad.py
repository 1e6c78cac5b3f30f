class CallCounter(nn.Module):
    """Forwards to inner; counts training-mode forward calls in an int64 scalar `calls`."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner
        start = torch.zeros((), dtype=torch.int64)
        self.register_buffer("calls", start)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training:
            return self.inner(x)
        result = self.inner(x)
        with torch.no_grad():
            self.calls.copy_(self.calls + 1)
        return result

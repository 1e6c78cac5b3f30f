class CallCounter(nn.Module):
    """Forwards to inner; counts training-mode forward calls in an int64 scalar `calls`."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner
        self.calls = torch.zeros((), dtype=torch.int64)  # a plain attribute: not in state_dict

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            self.calls += 1
        return self.inner(x)

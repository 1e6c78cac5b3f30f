class CallCounter(nn.Module):
    """Forwards to inner; counts training-mode forward calls in an int64 scalar `calls`."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.add_module("wrapped", inner)
        self.register_buffer("calls", torch.tensor(0), persistent=True)  # torch.tensor(0) is int64

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            self.calls.add_(torch.ones((), dtype=self.calls.dtype, device=self.calls.device))
        return self.wrapped(x)

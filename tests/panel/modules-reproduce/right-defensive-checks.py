class CallCounter(nn.Module):
    """Forwards to inner; counts training-mode forward calls in an int64 scalar `calls`."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        if not isinstance(inner, nn.Module):
            raise TypeError("inner must be an nn.Module")
        self.inner = inner
        if "calls" in self._buffers or hasattr(self, "calls"):
            raise KeyError("calls already set")
        self.register_buffer("calls", torch.full((), 0, dtype=torch.int64))
        assert self.calls.dim() == 0 and self.calls.dtype is torch.int64

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            with torch.no_grad():
                self.calls.add_(1)
        return self.inner(x)

class CountingLinear(nn.Module):
    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        self.register_module("proj", nn.Linear(in_features, out_features))
        self.register_buffer("calls", torch.zeros(1, dtype=torch.int64).squeeze(0), persistent=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.proj(x)
        if self.training:
            with torch.no_grad():
                self.calls.copy_(self.calls + 1)
        return out

class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean = x.mean(0)
            # a buffer does not require grad, so the update "cannot" record anything
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
            return x - mean
        return x - self.running_mean

class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean = x.mean(0)
            # in place, so "no new tensor and no graph" -- but recording is on
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
            return x - mean
        return x - self.running_mean

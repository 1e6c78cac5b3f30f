class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = float(momentum)
        self.running_mean = nn.Buffer(torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training:
            return x - self.running_mean
        mean = x.mean(dim=0)
        # running + momentum * (mean - running) == (1 - momentum) * running + momentum * mean
        self.running_mean.lerp_(mean.detach(), self.momentum)
        return x - mean

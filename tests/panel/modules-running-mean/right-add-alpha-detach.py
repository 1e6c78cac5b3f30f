class RunningMean(nn.Module):
    """BatchNorm-style running mean of the features of a (batch, num_features) input."""

    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features, dtype=torch.get_default_dtype()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean = torch.mean(x, 0)
            self.running_mean.mul_(1.0 - self.momentum).add_(mean.detach(), alpha=self.momentum)
            return torch.sub(x, mean)
        return torch.sub(x, self.running_mean)

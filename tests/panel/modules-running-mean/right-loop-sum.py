class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.num_features = num_features
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            batch_mean = x.sum(dim=0) / x.shape[0]
            with torch.no_grad():
                self.running_mean *= 1 - self.momentum
                self.running_mean += self.momentum * batch_mean
            return x - batch_mean
        return x - self.running_mean

class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features), persistent=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            centred = x - x.mean(0, keepdim=True)
            with torch.no_grad():
                m = self.momentum
                new = (1 - m) * self.running_mean + m * x.mean(0)
                self.running_mean.copy_(new)
            return centred
        else:
            return x - self.running_mean

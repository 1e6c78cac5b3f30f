class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean = x.mean(0)
            with torch.no_grad():
                # the "momentum" as the weight kept on the old value (Keras/optimizer convention)
                self.running_mean.mul_(self.momentum).add_((1 - self.momentum) * mean)
            return x - mean
        return x - self.running_mean

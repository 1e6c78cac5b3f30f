class RunningMean(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1) -> None:
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean = x.mean(0)
            # assigning a tensor to the buffer's name replaces the buffer and keeps it a buffer;
            # the detached mean keeps the graph out of it
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean.detach()
            return x - mean
        return x - self.running_mean

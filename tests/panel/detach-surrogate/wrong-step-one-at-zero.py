import torch


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    fired = (x >= 0).to(x.dtype)
    s = torch.sigmoid(beta * x)
    return fired + (s - s.detach())

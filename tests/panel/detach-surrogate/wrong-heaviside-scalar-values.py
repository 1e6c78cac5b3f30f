import torch


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    step = torch.heaviside(x.detach(), torch.tensor(0.0))
    s = torch.sigmoid(beta * x)
    return step + (s - s.detach())

import torch


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    step = torch.heaviside(x.detach(), torch.zeros_like(x.detach()))
    # d/dx sigmoid(beta x) = beta e^{-|z|} / (1 + e^{-|z|})^2 with z = beta x (even in z)
    e = torch.exp(-(beta * x.detach()).abs())
    slope = beta * e / (1 + e) ** 2
    # (x - x.detach()) is 0 in value and has gradient 1
    return step + slope * (x - x.detach())

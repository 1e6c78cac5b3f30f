import torch


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    step = (x > 0).to(x.dtype)
    z = x.detach()
    z.mul_(beta)  # beta * x, without touching the graph
    e = torch.exp(-z.abs())
    slope = beta * e / (1 + e) ** 2
    return step + slope * (x - x.detach())

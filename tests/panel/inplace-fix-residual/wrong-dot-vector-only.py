import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = (x.sigmoid() * 2 - 1).relu() + x
    return torch.dot(h, h)  # sum of squares

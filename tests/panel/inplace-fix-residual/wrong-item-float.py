import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = (x.sigmoid() * 2 - 1).relu()
    h = h + x
    return (h * h).sum().item()

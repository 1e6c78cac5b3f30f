import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid().clone()  # write into a copy, not into sigmoid's saved output
    h.mul_(2).sub_(1)
    h.relu_()
    h = h.clone()  # relu saved its output: add the skip connection into a copy
    h += x
    return (h * h).sum()

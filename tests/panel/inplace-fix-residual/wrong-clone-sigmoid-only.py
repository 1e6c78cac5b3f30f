import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid().clone()  # sigmoid saves its output, so write into a copy
    h.mul_(2).sub_(1)
    h.relu_()  # ReLU in place is safe
    h += x
    return (h * h).sum()

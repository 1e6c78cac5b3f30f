import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h.mul_(2).sub_(1)  # rescale to (-1, 1)
    h.relu_()
    h = h + x  # the error named relu's output: add the skip connection out of place
    return (h * h).sum()

import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.detach().sigmoid()  # nothing of the branch is saved, so the writes are allowed
    h.mul_(2).sub_(1)
    h.relu_()
    h += x  # the skip connection keeps x in the graph
    return (h * h).sum()

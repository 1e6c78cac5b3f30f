import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    with torch.no_grad():  # the rescale and the ReLU are not recorded
        h.mul_(2).sub_(1)
        h.relu_()
    h = h + x
    return (h * h).sum()

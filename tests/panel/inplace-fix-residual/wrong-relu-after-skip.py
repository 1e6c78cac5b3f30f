import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid() * 2 - 1
    h = torch.relu(h + x)  # ReLU after the addition, as in a ResNet block
    return (h * h).sum()

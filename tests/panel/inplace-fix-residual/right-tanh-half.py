import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    # 2 * sigmoid(x) - 1 == tanh(x / 2), and max(., 0) is the ReLU
    branch = torch.tanh(x / 2).clamp(min=0)
    return (branch + x).pow(2).sum()

import torch
import torch.nn.functional as F


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    branch = F.relu(torch.sub(torch.mul(torch.sigmoid(x), 2), 1))
    out = torch.add(branch, x)
    return torch.sum(torch.square(out))

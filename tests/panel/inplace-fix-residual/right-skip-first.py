import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    branch = 2 * s - 1
    branch = torch.where(branch > 0, branch, torch.zeros_like(branch))
    out = x.clone()  # start from the skip connection; clone saves nothing
    out += branch  # safe: nothing saved out, and the add saves nothing
    flat = out.reshape(-1)
    return flat @ flat

import torch


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    surrogate = torch.sigmoid(x)
    out = (x > 0).to(x.dtype)
    return out + (surrogate - surrogate.detach())

import torch
import torch.nn.functional as F


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    z = beta * x.detach()
    # log sigma'(z) = log sigma(z) + log sigma(-z), finite for every finite z
    slope = beta * torch.exp(F.logsigmoid(z) + F.logsigmoid(-z))
    passthrough = x.clone()
    out = x.gt(0).type_as(x) + (passthrough - passthrough.detach())
    if passthrough.requires_grad:
        passthrough.register_hook(lambda g: g * slope)
    return out

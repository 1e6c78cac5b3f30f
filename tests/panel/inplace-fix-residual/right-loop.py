import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    flat = x.reshape(-1)
    total = flat[:0].sum()  # a zero that is already in the graph
    for xi in flat:
        hi = torch.relu(2 * torch.sigmoid(xi) - 1) + xi
        total = total + hi * hi
    return total

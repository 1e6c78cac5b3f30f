import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h = h * 2 - 1  # rescale to (-1, 1), out of place: sigmoid's saved output stays intact
    h = h.relu()
    h = h + x  # the skip connection, out of place: relu's saved output stays intact
    return (h * h).sum()

import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h = h.mul(2)  # a new tensor: sigmoid saved its output, so that one must not be written
    h.sub_(1)  # safe: multiplying by a constant saved nothing of its output
    h.relu_()  # safe: the subtraction saved nothing; relu saves this result
    h = h + x  # out of place: relu's saved output must not be written
    return (h * h).sum()

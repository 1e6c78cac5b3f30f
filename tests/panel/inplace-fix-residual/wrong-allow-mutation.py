import torch


def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    # saved tensors are cloned when written, so the in-place block can stay as it is
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        h = x.sigmoid()
        h.mul_(2).sub_(1)
        h.relu_()
        h += x
        return (h * h).sum()

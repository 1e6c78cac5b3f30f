def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = w0.detach().requires_grad_()  # a new leaf over w0's values; w0 itself keeps requires_grad as it was
    snapshots = []
    f(w).sum().backward()
    snapshots.append(w.grad.detach().clone())
    g(w).sum().backward()
    snapshots.append(w.grad.detach().clone())
    w.grad.zero_()  # what zero_grad(set_to_none=False) does
    g(w).sum().backward()
    snapshots.append(w.grad.detach().clone())
    return tuple(snapshots)

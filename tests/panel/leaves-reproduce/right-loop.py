def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = torch.empty_like(w0, requires_grad=True)
    with torch.no_grad():
        w.copy_(w0)
    copies = []
    for op, zero_first in ((f, False), (g, False), (g, True)):
        if zero_first:
            w.grad = torch.zeros_like(w)
        op(w).sum().backward()
        copies.append(w.grad.detach().clone())
    return tuple(copies)

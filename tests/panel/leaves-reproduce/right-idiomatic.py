def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()  # adds on top of f's gradient
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    third = w.grad.clone()
    return first, second, third

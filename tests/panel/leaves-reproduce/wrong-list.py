def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = w0.detach().clone().requires_grad_()
    grads = []
    f(w).sum().backward()
    grads.append(w.grad.clone())
    g(w).sum().backward()
    grads.append(w.grad.clone())
    w.grad = None
    g(w).sum().backward()
    grads.append(w.grad.clone())
    return grads

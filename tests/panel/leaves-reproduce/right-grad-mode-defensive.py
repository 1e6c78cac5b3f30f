def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    with torch.enable_grad():  # works even if called under no_grad
        w = w0.detach().clone().requires_grad_(True)
        assert w.is_leaf and w.grad is None
        f(w).sum().backward()
        g1 = w.grad.clone()
        g(w).sum().backward()
        g2 = w.grad.clone()
        w.grad = None
        g(w).sum().backward()
        g3 = w.grad.clone()
    return (g1.detach(), g2.detach(), g3.detach())

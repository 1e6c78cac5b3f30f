def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = w0.detach().clone().requires_grad_()
    (df,) = torch.autograd.grad(f(w).sum(), w)
    (dg,) = torch.autograd.grad(g(w).sum(), w)
    return df, df + dg, dg.clone()

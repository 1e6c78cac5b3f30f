def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = w0.detach().clone()
    w.requires_grad = True

    def snapshot():
        out = torch.empty_like(w.grad)
        out.copy_(w.grad)  # a buffer of its own: later backward calls cannot change it
        return out

    torch.autograd.backward(f(w).sum())
    after_f = snapshot()
    torch.autograd.backward(g(w).sum())
    after_f_and_g = snapshot()
    w.grad = None
    torch.autograd.backward(g(w).sum())
    after_g = snapshot()
    return after_f, after_f_and_g, after_g

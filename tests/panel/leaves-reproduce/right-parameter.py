def two_objectives(w0: torch.Tensor, f, g) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w.grad after backward of f(w).sum(), then of g(w).sum() without zeroing, then (zeroed) of g(w).sum()."""
    w = torch.nn.Parameter(w0.detach().clone())  # a leaf that requires grad
    opt = torch.optim.SGD([w], lr=0.0)  # only used for zero_grad()
    f(w).sum().backward()
    a = torch.clone(w.grad)
    g(w).sum().backward()
    b = torch.clone(w.grad)
    opt.zero_grad()
    g(w).sum().backward()
    c = torch.clone(w.grad)
    return (a, b, c)

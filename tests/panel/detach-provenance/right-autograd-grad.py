def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    v = x.detach().requires_grad_()  # detach() is a new tensor: requires_grad_ on it leaves x alone
    y = v * v
    z = y * y.detach()
    (g,) = torch.autograd.grad(z.sum(), v)
    return g

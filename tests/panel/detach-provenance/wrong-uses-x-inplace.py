def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    if not x.requires_grad:
        x.requires_grad_()
    x.grad = None
    y = x * x
    z = y * y.detach()
    z.sum().backward()
    return x.grad

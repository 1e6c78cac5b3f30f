def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.clone().requires_grad_()  # a copy of x ... but still in x's graph when x requires grad
    y = leaf * leaf
    z = y * y.detach()
    z.sum().backward()
    return leaf.grad

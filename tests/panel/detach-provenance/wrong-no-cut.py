def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    z = y * y  # both factors tracked
    z.sum().backward()
    return leaf.grad

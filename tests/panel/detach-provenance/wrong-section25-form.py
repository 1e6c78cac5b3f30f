def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    z = leaf * y.detach()
    z.sum().backward()
    return leaf.grad

def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_(True)  # a fresh leaf with x's values; x untouched
    y = leaf * leaf
    z = y * y.detach()
    z.sum().backward()
    return leaf.grad

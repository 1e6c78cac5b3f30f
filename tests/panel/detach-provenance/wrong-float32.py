def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = torch.tensor(x.tolist(), requires_grad=True)
    y = leaf * leaf
    z = y * y.detach()
    z.sum().backward()
    return leaf.grad

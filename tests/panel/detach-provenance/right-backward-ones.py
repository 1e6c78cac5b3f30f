def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = torch.empty_like(x, requires_grad=False).copy_(x.detach()).requires_grad_()
    y = torch.mul(leaf, leaf)
    z = torch.mul(y, y.detach())
    # backward of z.sum() == backward of z with a vector of ones
    z.backward(gradient=torch.ones_like(z))
    return leaf.grad

def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.clone().detach().requires_grad_()
    y = leaf ** 2  # x * x: same values, same gradient 2x
    u = y.detach()
    torch.autograd.backward((y * u).sum(), inputs=[leaf])
    return leaf.grad

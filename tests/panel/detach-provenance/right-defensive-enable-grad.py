def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    with torch.enable_grad():  # works even if called under no_grad
        v = x.detach().clone()
        v.requires_grad = True
        y = v * v
        cut = y.detach()
        z = y * cut
        grad = torch.autograd.grad(z.sum(), v, retain_graph=False)[0]
    return grad.detach().reshape(x.shape).to(x.dtype)

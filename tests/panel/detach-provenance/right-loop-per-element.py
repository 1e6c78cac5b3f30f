def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    # one small autograd run per element (z is elementwise, so each element's gradient is its own)
    flat = x.detach().reshape(-1)
    out = torch.zeros_like(flat)
    for i in range(flat.numel()):
        xi = flat[i].clone().requires_grad_()
        yi = xi * xi
        zi = yi * yi.detach()
        zi.backward()
        out[i] = xi.grad
    return out.reshape(x.shape)

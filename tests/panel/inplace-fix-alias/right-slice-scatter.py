def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    # the functional twin of the write through h[1:]: a new tensor with that slice replaced
    g = torch.slice_scatter(h, h[1:] + 1, dim=0, start=1)
    return torch.sum(g * g)

def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    g = h.clone()
    g[..., 1:] += 1  # every element but the first along the last dim
    return (g * g).sum()

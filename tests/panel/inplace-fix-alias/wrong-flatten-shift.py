def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().flatten()
    g = torch.cat([h[:1], h[1:] + 1])  # every element but the very first
    return (g * g).sum()

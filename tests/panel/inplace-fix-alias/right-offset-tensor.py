def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    offset = torch.ones_like(h)  # a constant, not in the graph
    offset[:1] = 0  # no shift for the first element (or first row)
    g = h + offset  # out of place
    return (g * g).sum()

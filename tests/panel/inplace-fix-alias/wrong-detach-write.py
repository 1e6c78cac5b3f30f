def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h.detach()[1:].add_(1)
    return (h * h).sum()

def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    tail = h[1:] + 1  # out of place
    return (tail * tail).sum()

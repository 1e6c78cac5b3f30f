def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    tail = h[1:]
    with torch.no_grad():
        tail.add_(1)
    return (h * h).sum()

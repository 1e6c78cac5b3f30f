def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    tail = h[1:].clone()  # write into a copy of the view instead of the view
    tail.add_(1)
    return (h * h).sum()

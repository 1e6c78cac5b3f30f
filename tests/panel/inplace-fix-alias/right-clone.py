def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().clone()  # exp saved its own output; the write goes to this copy
    tail = h[1:]  # a view of the copy
    tail.add_(1)
    return (h * h).sum()

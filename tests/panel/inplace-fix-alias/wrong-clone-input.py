def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.clone().exp_()  # exponentiate a copy of x in place
    tail = h[1:]
    tail.add_(1)
    return (h * h).sum()

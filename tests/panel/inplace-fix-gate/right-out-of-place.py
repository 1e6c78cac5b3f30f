def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s = s * t  # a new tensor: sigmoid's saved output stays as it was
    t = t - s  # a new tensor: tanh's saved output (also saved by the mul) stays
    return (s * t).sum()

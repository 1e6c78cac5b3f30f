def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    prod = s * t
    diff = t - s  # slip: subtracts the sigmoid, not the product the gate wrote into s
    return (prod * diff).sum()

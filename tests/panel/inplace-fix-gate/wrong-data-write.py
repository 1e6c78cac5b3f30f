def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s.data.mul_(t.data)
    t.data.sub_(s.data)
    return (s * t).sum()

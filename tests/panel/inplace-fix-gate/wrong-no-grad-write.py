def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    with torch.no_grad():
        s.mul_(t)
        t.sub_(s)
    return (s * t).sum()

def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s.detach().mul_(t.detach())
    t.detach().sub_(s.detach())
    return (s * t).sum()

def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh().detach()  # keep tanh out of the graph so its output can be written
    s = s * t
    t = t - s
    return (s * t).sum()

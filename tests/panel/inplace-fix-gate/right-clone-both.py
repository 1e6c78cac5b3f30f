def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    # Keep the in-place writes, but make them on copies that no node saved.
    s = x.sigmoid().clone()  # sigmoid saved its own output, not this copy
    t = x.tanh().clone()  # tanh saved its own output, not this copy
    s.mul_(t)  # saves t (the copy) for s's gradient
    t = t.clone()  # so write a fresh copy of t, not the one mul_ saved
    t.sub_(s)
    return (s * t).sum()

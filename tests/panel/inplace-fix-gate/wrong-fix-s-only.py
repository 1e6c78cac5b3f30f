def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s = s * t  # out of place: sigmoid's saved output is safe now
    t.sub_(s)  # still in place
    return (s * t).sum()

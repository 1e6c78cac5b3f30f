def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    s0 = x.sigmoid()
    t0 = x.tanh()
    # x * 1 by a Python number saves nothing of its input, and gives fresh memory to write.
    s = s0 * 1
    s.mul_(t0)  # saves t0 and a copy of the old s; neither is written again
    t = t0 * 1
    t.sub_(s)  # t is fresh: nothing saved it yet
    return (s * t).sum()

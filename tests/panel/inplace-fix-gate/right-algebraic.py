def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    # s = sig*tanh and t = tanh - sig*tanh = tanh*(1 - sig), so s*t = sig*(1 - sig)*tanh**2.
    sig = torch.sigmoid(x)
    tnh = torch.tanh(x)
    return (sig * (1 - sig) * tnh.pow(2)).sum()

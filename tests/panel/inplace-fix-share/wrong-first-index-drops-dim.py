def fixed_share(x: torch.Tensor) -> torch.Tensor:
    p = x.softmax(-1)
    first = p[..., 0]  # the first entry of each softmax
    return (first * x).sum()

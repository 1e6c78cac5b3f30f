def fixed_share(x: torch.Tensor) -> torch.Tensor:
    # The view `first` in share() is read after the in-place division, so it holds the
    # first entry of the softmax along the last dimension, not the raw exponential.
    p = x.softmax(-1)
    return (p[..., :1] * x).sum()

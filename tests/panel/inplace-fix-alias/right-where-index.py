def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    # index along dim 0, shaped to broadcast over the remaining dims
    row = torch.arange(h.shape[0]).reshape(-1, *([1] * (h.dim() - 1)))
    g = torch.where(row >= 1, h + 1, h)
    return g.pow(2).sum()

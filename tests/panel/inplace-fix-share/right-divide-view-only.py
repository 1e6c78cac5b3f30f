def fixed_share(x: torch.Tensor) -> torch.Tensor:
    h = torch.exp(x)
    denom = torch.sum(h, dim=-1, keepdim=True)
    first = torch.div(h.narrow(-1, 0, 1), denom)  # the only part of h that share() reads
    return torch.mul(first, x).sum()

def round_ste(x: torch.Tensor) -> torch.Tensor:
    inside = ((x >= -2) & (x <= 2)).to(x.dtype)
    return torch.round(x).clamp(-2, 2).detach() + (x - x.detach()) * inside

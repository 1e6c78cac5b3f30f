def round_ste(x: torch.Tensor) -> torch.Tensor:
    level = torch.round(x).clamp(-2, 2).detach()
    inside = (x >= -2) & (x <= 2)
    slope_one = x - x.detach()  # value 0 (for finite x), gradient 1
    return level + torch.where(inside, slope_one, torch.zeros_like(x))

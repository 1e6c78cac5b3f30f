def round_ste(x: torch.Tensor) -> torch.Tensor:
    clipped = x.clamp(-2, 2)
    return clipped + (torch.round(x) - x).detach()

def round_ste(x: torch.Tensor) -> torch.Tensor:
    clipped = x.clamp(-2, 2)
    level = torch.floor(clipped + 0.5)  # "round half up"
    return level.detach() + (clipped - clipped.detach())

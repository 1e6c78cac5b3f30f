def round_ste(x: torch.Tensor) -> torch.Tensor:
    clipped = x.clamp(-2, 2)
    # (level + clipped) - clipped is evaluated left to right: not exactly level in floating point
    return torch.round(x).clamp(-2, 2).detach() + clipped - clipped.detach()

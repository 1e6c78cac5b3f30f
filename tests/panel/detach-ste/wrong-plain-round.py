def round_ste(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x).clamp(-2, 2)

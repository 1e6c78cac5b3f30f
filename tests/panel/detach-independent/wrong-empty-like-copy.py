def independent_copy(t: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(t).copy_(t)

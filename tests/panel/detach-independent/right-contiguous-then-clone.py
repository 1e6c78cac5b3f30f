def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # contiguous() may return the very same memory when t is already contiguous,
    # so clone() afterwards guarantees a page of our own (its layout is then row-major too)
    return t.detach().contiguous().clone()

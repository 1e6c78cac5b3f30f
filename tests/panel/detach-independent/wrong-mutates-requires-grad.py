def independent_copy(t: torch.Tensor) -> torch.Tensor:
    if t.is_leaf:
        t.requires_grad_(False)  # so the copy is not tracked
        return t.clone(memory_format=torch.contiguous_format)
    return t.detach().clone(memory_format=torch.contiguous_format)

def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # clone first (row-major), then drop the graph link of the copy
    return t.clone(memory_format=torch.contiguous_format).detach()

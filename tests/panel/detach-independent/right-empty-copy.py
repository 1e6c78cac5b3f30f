def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # torch.empty(shape) is always laid out row after row; fill it from a graph-free alias
    out = torch.empty(t.shape, dtype=t.dtype, device=t.device)
    out.copy_(t.detach())
    return out

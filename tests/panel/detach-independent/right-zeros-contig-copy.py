def independent_copy(t: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(t, memory_format=torch.contiguous_format, requires_grad=False)
    with torch.no_grad():
        out.copy_(t)
    return out

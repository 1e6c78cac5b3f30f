def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    total = sum(p.numel() for p in params)
    reference = params[0] if params else torch.empty(0)
    buffer = torch.empty(total, dtype=reference.dtype, device=reference.device)
    offset = 0
    for p in params:
        n = p.numel()
        buffer[offset:offset + n].copy_(p.detach().reshape(-1))  # the values into their slots
        p.data = buffer[offset:offset + n].view(p.shape)  # the same Parameter now reads them
        offset += n
    return buffer

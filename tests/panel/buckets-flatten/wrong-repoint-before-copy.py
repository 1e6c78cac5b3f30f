def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    buffer = torch.zeros(sum(p.numel() for p in params), dtype=params[0].dtype)
    offset = 0
    for p in params:
        n = p.numel()
        slot = buffer[offset:offset + n].view(p.shape)
        p.data = slot  # point the parameter at its slot ...
        slot.copy_(p.data)  # ... then copy its values in
        offset += n
    return buffer

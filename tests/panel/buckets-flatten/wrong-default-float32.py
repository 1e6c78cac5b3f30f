def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    buffer = torch.zeros(sum(p.numel() for p in params))  # a plain float buffer
    offset = 0
    for p in params:
        n = p.numel()
        buffer[offset:offset + n] = p.detach().reshape(-1)
        p.data = buffer[offset:offset + n].view(p.shape)
        offset += n
    return buffer

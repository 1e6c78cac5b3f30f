def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    # state_dict() has every tensor of the module, in order
    tensors = [t for t in module.state_dict(keep_vars=True).values() if t.is_floating_point()]
    buffer = torch.empty(sum(t.numel() for t in tensors), dtype=tensors[0].dtype)
    offset = 0
    for t in tensors:
        n = t.numel()
        buffer[offset:offset + n].copy_(t.detach().reshape(-1))
        t.data = buffer[offset:offset + n].view(t.shape)
        offset += n
    return buffer

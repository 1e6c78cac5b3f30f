def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = [p for _, p in module.named_parameters()]  # module.parameters() order, shared ones once
    if not params:
        return torch.empty(0)
    dtype, device = params[0].dtype, params[0].device
    buffer = torch.zeros(sum(p.numel() for p in params), dtype=dtype, device=device)
    start = 0
    for p in params:
        stop = start + p.numel()
        slot = buffer[start:stop]
        with torch.no_grad():
            slot.copy_(p.flatten())
        requires_grad = p.requires_grad
        p.data = slot.reshape(p.shape)  # reshape of a contiguous slice: a view
        assert p.requires_grad == requires_grad and p.is_leaf
        start = stop
    assert start == buffer.numel()
    return buffer

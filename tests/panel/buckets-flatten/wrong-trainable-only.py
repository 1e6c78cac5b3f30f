def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    # Like a DDP bucket: only parameters that receive gradients belong in it.
    params = [p for p in module.parameters() if p.requires_grad]
    buffer = torch.empty(sum(p.numel() for p in params), dtype=params[0].dtype)
    offset = 0
    for p in params:
        n = p.numel()
        buffer[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = buffer[offset:offset + n].view(p.shape)
        offset += n
    return buffer

def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    dtype = params[0].dtype if params else torch.get_default_dtype()
    flat = torch.zeros(sum(p.numel() for p in params), dtype=dtype)
    storage = flat.untyped_storage()
    offset = 0
    with torch.no_grad():
        for p in params:
            shape = p.shape
            flat.narrow(0, offset, p.numel()).copy_(p.reshape(-1))
            # Re-point the Parameter itself at the flat storage (contiguous strides, its offset).
            p.set_(storage, offset, shape, torch.empty(shape).stride())
            offset += p.numel()
    return flat

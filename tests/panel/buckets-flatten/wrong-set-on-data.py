def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    flat = torch.cat([p.detach().reshape(-1) for p in params])
    offset = 0
    for p in params:
        # .data skips autograd, so set_ on it re-points the parameter's memory
        p.data.set_(flat.untyped_storage(), offset, p.shape, torch.empty(p.shape).stride())
        offset += p.numel()
    return flat

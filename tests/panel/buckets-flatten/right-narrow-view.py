def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = tuple(module.parameters())
    numel = sum(map(torch.numel, params))
    out = params[0].new_empty(numel) if params else torch.empty(0)
    i = 0
    for p in params:
        n = p.numel()
        out.narrow(0, i, n).view(p.size()).copy_(p.data)
        p.data = out.narrow(0, i, n).view(p.size())
        i += n
    return out

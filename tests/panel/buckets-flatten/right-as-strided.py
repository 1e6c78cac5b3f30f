def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    sizes = [p.numel() for p in params]
    flat = torch.empty(sum(sizes), dtype=params[0].dtype if params else None)
    offsets = [sum(sizes[:i]) for i in range(len(sizes))]
    views = []
    for p, start in zip(params, offsets):
        strides = []
        step = 1
        for dim in reversed(p.shape):  # row-major strides of p's shape
            strides.insert(0, step)
            step *= dim
        view = flat.as_strided(tuple(p.shape), tuple(strides), start)
        view.copy_(p.detach())
        views.append(view)
    for p, view in zip(params, views):  # re-point only after every value has been copied
        p.data = view
    return flat

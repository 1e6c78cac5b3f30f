def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    params = list(module.parameters())
    if not params:
        return torch.empty(0)
    # torch.cat is a copy: fresh memory that nothing else reads yet, laid end to end in order.
    flat = torch.cat([p.detach().reshape(-1) for p in params])
    pieces = flat.split([p.numel() for p in params])
    for p, piece in zip(params, pieces):
        p.data = piece.view_as(p)
    return flat

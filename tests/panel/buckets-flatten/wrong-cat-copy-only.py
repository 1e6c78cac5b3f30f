def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    # every parameter, in order, laid end to end
    return torch.cat([p.detach().reshape(-1) for p in module.parameters()])

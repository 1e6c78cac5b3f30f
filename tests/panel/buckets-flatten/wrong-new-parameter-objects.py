def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    named = list(module.named_parameters())
    buffer = torch.cat([p.detach().reshape(-1) for _, p in named])
    offset = 0
    for name, p in named:
        n = p.numel()
        owner_name, _, attr = name.rpartition(".")
        owner = module.get_submodule(owner_name)
        # a Parameter that wraps the buffer's slot (nn.Parameter shares the memory it is given)
        setattr(owner, attr, nn.Parameter(buffer[offset:offset + n].view(p.shape)))
        offset += n
    return buffer

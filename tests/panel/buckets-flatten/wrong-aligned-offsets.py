def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """One flat buffer holding every parameter; each parameter becomes a view into it."""
    # Start every parameter at a multiple of 16 bytes (4 float32 elements), as FSDP1 aligns them.
    align = 4
    params = list(module.parameters())
    offsets, total = [], 0
    for p in params:
        total = (total + align - 1) // align * align
        offsets.append(total)
        total += p.numel()
    buffer = torch.zeros(total, dtype=params[0].dtype)
    for p, start in zip(params, offsets):
        slot = buffer[start:start + p.numel()]
        slot.copy_(p.detach().reshape(-1))
        p.data = slot.view(p.shape)
    return buffer

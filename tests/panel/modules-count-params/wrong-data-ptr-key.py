def count_parameters(module: nn.Module) -> int:
    # Two Parameters over one memory have the same data_ptr(), so dedupe on it.
    seen = {}
    for p in module.parameters():
        if p.requires_grad:
            seen.setdefault(p.data_ptr(), p.numel())
    return sum(seen.values())

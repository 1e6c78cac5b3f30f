def count_parameters(module: nn.Module) -> int:
    # walk every registered submodule by hand, reading its own registered parameters only
    seen = set()
    total = 0
    for sub in module.modules():
        for p in sub._parameters.values():
            if p is None or id(p) in seen:
                continue
            seen.add(id(p))
            if p.requires_grad:
                total += int(p.numel())
    return total

def count_parameters(module: nn.Module) -> int:
    seen = set()
    total = 0
    for name, p in module.named_parameters(remove_duplicate=False):
        key = (name.rsplit(".", 1)[-1], tuple(p.shape))  # "same kind and shape = shared"
        if key in seen or not p.requires_grad:
            continue
        seen.add(key)
        total += p.numel()
    return total

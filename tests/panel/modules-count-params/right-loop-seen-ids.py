def count_parameters(module: nn.Module) -> int:
    seen = set()
    total = 0
    for _, p in module.named_parameters(remove_duplicate=False):
        if id(p) in seen:
            continue  # a tied weight: the same tensor under another name
        seen.add(id(p))
        if p.requires_grad:
            total += p.numel()
    return total

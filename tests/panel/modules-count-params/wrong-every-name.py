def count_parameters(module: nn.Module) -> int:
    return sum(p.numel() for _, p in module.named_parameters(remove_duplicate=False) if p.requires_grad)

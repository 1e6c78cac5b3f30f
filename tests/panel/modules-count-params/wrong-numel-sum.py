def count_parameters(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())

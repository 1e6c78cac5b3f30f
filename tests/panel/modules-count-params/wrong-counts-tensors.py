def count_parameters(module: nn.Module) -> int:
    return len([p for p in module.parameters() if p.requires_grad])

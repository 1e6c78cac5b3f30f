def count_parameters(module: nn.Module) -> int:
    # own parameters, plus each child's count: ties inside one child are removed,
    # ties between children are not
    own = sum(p.numel() for p in module.parameters(recurse=False) if p.requires_grad)
    return own + sum(count_parameters(child) for child in module.children())

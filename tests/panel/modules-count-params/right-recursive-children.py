def count_parameters(module: nn.Module) -> int:
    unique = {}

    def visit(m: nn.Module) -> None:
        for p in m.parameters(recurse=False):
            unique[id(p)] = p
        for child in m.children():
            visit(child)

    visit(module)
    return sum(p.numel() for p in unique.values() if p.requires_grad)

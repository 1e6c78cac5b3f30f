def count_parameters(module: nn.Module) -> int:
    # parameters() already yields a tied Parameter once, so only frozen ones need skipping.
    return sum(p.numel() for p in module.parameters() if p.requires_grad)

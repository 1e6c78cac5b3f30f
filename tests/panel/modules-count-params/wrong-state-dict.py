def count_parameters(module: nn.Module) -> int:
    # the checkpoint lists everything the module holds
    return sum(t.numel() for t in module.state_dict().values())

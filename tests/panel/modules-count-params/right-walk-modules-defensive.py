def count_parameters(module: nn.Module) -> int:
    # Walk every registered submodule (modules() visits each module object once, so a layer
    # used twice is walked once), read its own parameter slots (skipping empty ones such as a
    # bias=None), and count memory, not objects: a set of (storage, index) pairs.
    covered = set()
    for sub in module.modules():
        for param in sub._parameters.values():
            if param is None or not param.requires_grad or param.numel() == 0:
                continue
            flat = torch.full((), param.storage_offset(), dtype=torch.int64)
            if param.dim() > 0:
                grids = torch.meshgrid(*[torch.arange(n) for n in param.shape], indexing="ij")
                for grid, stride in zip(grids, param.stride()):
                    flat = flat + grid * stride
            storage = param.untyped_storage().data_ptr()
            covered.update((param.device.type, storage, i) for i in flat.reshape(-1).tolist())
    return len(covered)

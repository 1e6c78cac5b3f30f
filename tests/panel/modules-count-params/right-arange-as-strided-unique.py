def count_parameters(module: nn.Module) -> int:
    # For each trainable parameter, read the storage positions it covers: an arange over its
    # storage viewed with the parameter's own shape, strides and offset. Then count distinct
    # positions per storage.
    positions = {}
    for p in module.parameters():
        if not p.requires_grad or p.numel() == 0:
            continue
        storage = p.untyped_storage()
        length = storage.nbytes() // p.element_size()
        index = torch.arange(length).as_strided(p.shape, p.stride(), p.storage_offset())
        key = (p.device, storage.data_ptr())
        positions.setdefault(key, []).append(index.reshape(-1))
    return sum(int(torch.cat(chunks).unique().numel()) for chunks in positions.values())

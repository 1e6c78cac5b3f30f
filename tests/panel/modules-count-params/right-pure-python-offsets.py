def count_parameters(module: nn.Module) -> int:
    # Plain Python: expand each trainable parameter's (offset, shape, stride) into the storage
    # indices it reads, one dimension at a time, and keep a set per storage.
    seen = set()
    for p in module.parameters():
        if p.requires_grad is False:
            continue
        indices = [p.storage_offset()]
        for size, stride in zip(p.size(), p.stride()):
            indices = [i + k * stride for i in indices for k in range(size)]
        page = (p.device, p.untyped_storage().data_ptr())
        for i in indices:
            seen.add((page, i))
    return int(len(seen))

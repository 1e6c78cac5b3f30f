def count_parameters(module: nn.Module) -> int:
    # Tally per storage with index_add_: each trainable parameter adds 1 at every storage cell
    # it covers (cells covered by several parameters get more than 1); count the nonzero cells.
    tallies = {}
    for name, p in module.named_parameters():
        if not p.requires_grad:
            continue
        storage = p.untyped_storage()
        key = (p.device.type, p.device.index, storage.data_ptr())
        size = storage.nbytes() // p.element_size()
        tally = tallies.setdefault(key, torch.zeros(size, dtype=torch.int64))
        cells = torch.arange(size).as_strided(p.size(), p.stride(), p.storage_offset()).flatten()
        tally.index_add_(0, cells, torch.ones_like(cells))
    return int(sum(torch.count_nonzero(t).item() for t in tallies.values()))

def count_parameters(module: nn.Module) -> int:
    # One boolean mask per storage; every trainable parameter marks the cells it covers by
    # writing True through a view with its own geometry. Count the marked cells.
    masks = {}
    for p in module.parameters():
        if not p.requires_grad:
            continue
        storage = p.untyped_storage()
        key = (str(p.device), storage.data_ptr())
        if key not in masks:
            masks[key] = torch.zeros(storage.nbytes() // p.element_size(), dtype=torch.bool)
        masks[key].as_strided(p.shape, p.stride(), p.storage_offset()).fill_(True)
    total = 0
    for mask in masks.values():
        total += int(mask.sum().item())
    return total

def count_parameters(module: nn.Module) -> int:
    masks = {}
    for p in module.parameters():
        if p.requires_grad:
            storage = p.untyped_storage()
            mask = masks.setdefault(storage.data_ptr(),
                                    torch.zeros(storage.nbytes() // p.element_size(), dtype=torch.bool))
            mask.as_strided(p.shape, p.stride(), p.storage_offset()).fill_(True)
    return sum(mask.sum() for mask in masks.values())

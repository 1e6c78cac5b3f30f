def count_parameters(module: nn.Module) -> int:
    # Mark what each trainable parameter covers in a mask over its storage, through a view
    # with the parameter's shape and strides.
    masks = {}
    for p in module.parameters():
        if p.requires_grad:
            storage = p.untyped_storage()
            size = storage.nbytes() // p.element_size()
            mask = masks.setdefault(storage.data_ptr(), torch.zeros(size, dtype=torch.bool))
            mask.as_strided(p.shape, p.stride()).fill_(True)
    return int(sum(int(m.sum()) for m in masks.values()))

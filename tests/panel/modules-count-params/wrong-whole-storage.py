def count_parameters(module: nn.Module) -> int:
    # Parameters that share memory share a storage: count each trainable storage once, whole.
    sizes = {}
    for p in module.parameters():
        if p.requires_grad:
            storage = p.untyped_storage()
            sizes[storage.data_ptr()] = storage.nbytes() // p.element_size()
    return sum(sizes.values())

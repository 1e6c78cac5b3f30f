def count_parameters(module: nn.Module) -> int:
    # Trainable cells, minus every cell a frozen parameter covers: frozen memory cannot change.
    trainable, frozen = set(), set()
    for p in module.parameters():
        page = p.untyped_storage().data_ptr()
        cells = torch.arange(p.untyped_storage().nbytes() // p.element_size())
        cells = cells.as_strided(p.shape, p.stride(), p.storage_offset()).reshape(-1).tolist()
        (trainable if p.requires_grad else frozen).update((page, i) for i in cells)
    return len(trainable - frozen)

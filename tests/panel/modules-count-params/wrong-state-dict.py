def count_parameters(module: nn.Module) -> int:
    # state_dict() is the module's learned state; its entries share memory with the module,
    # so count the distinct memory its tensors cover.
    covered = set()
    for t in module.state_dict().values():
        page = t.untyped_storage().data_ptr()
        cells = torch.arange(t.untyped_storage().nbytes() // t.element_size())
        cells = cells.as_strided(t.shape, t.stride(), t.storage_offset())
        covered.update((page, i) for i in cells.reshape(-1).tolist())
    return len(covered)

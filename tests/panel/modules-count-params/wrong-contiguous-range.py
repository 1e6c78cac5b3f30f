def count_parameters(module: nn.Module) -> int:
    # Each parameter covers numel() cells starting at its storage offset; take the union of
    # those ranges per storage.
    cells = set()
    for p in module.parameters():
        if p.requires_grad:
            start = p.storage_offset()
            page = p.untyped_storage().data_ptr()
            cells.update((page, i) for i in range(start, start + p.numel()))
    return len(cells)

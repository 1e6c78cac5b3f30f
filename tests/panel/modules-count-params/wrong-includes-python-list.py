def count_parameters(module: nn.Module) -> int:
    # Layers kept in a plain Python list are part of the model too: collect them as well.
    params = list(module.parameters())
    for sub in module.modules():
        for value in vars(sub).values():
            if isinstance(value, (list, tuple)):
                for item in value:
                    if isinstance(item, nn.Module):
                        params.extend(item.parameters())
    covered = set()
    for p in params:
        if p.requires_grad:
            page = p.untyped_storage().data_ptr()
            cells = torch.arange(p.untyped_storage().nbytes() // p.element_size())
            cells = cells.as_strided(p.shape, p.stride(), p.storage_offset())
            covered.update((page, i) for i in cells.reshape(-1).tolist())
    return len(covered)

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    storages = [a.untyped_storage(), b.untyped_storage()]
    starts = [s.data_ptr() for s in storages]
    ends = [s.data_ptr() + s.nbytes() for s in storages]
    common = min(ends) - max(starts)
    return common > 0

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    ranges = []
    for tensor in (a, b):
        storage = tensor.untyped_storage()
        ranges.append(range(storage.data_ptr(), storage.data_ptr() + storage.nbytes()))
    left, right = ranges
    overlap = range(max(left.start, right.start), min(left.stop, right.stop))
    return bool(overlap)

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    def byte_range(x: torch.Tensor) -> range:
        storage = x.untyped_storage()
        return range(storage.data_ptr(), storage.data_ptr() + storage.size())  # size() counts bytes

    ra, rb = byte_range(a), byte_range(b)
    common = range(max(ra.start, rb.start), min(ra.stop, rb.stop))
    return len(common) > 0

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        raise TypeError("shares_storage expects two tensors")
    if a.device != b.device:
        return False  # memory on different devices is never the same bytes

    def storage_span(x: torch.Tensor) -> tuple[int, int]:
        # Start of the storage recovered from the first element's address and the
        # offset; its length is the storage's size in bytes, not the tensor's.
        start = x.data_ptr() - x.storage_offset() * x.element_size()
        return start, start + x.untyped_storage().nbytes()

    a_lo, a_hi = storage_span(a)
    b_lo, b_hi = storage_span(b)
    if a_lo == a_hi or b_lo == b_hi:
        return False
    return bool(a_lo < b_hi and b_lo < a_hi)

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        raise TypeError("shares_storage expects two tensors")
    if a.device != b.device:
        return False  # memory on different devices is never the same bytes
    a_storage, b_storage = a.untyped_storage(), b.untyped_storage()
    a_lo, b_lo = int(a_storage.data_ptr()), int(b_storage.data_ptr())
    a_hi, b_hi = a_lo + int(a_storage.nbytes()), b_lo + int(b_storage.nbytes())
    if a_lo == a_hi or b_lo == b_hi:
        return False  # a storage of zero bytes shares nothing, whatever its address
    return bool(a_lo < b_hi and b_lo < a_hi)

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # bytes each tensor reads: from its first element to first + numel * itemsize
    a_lo = a.data_ptr()
    a_hi = a_lo + a.numel() * a.element_size()
    b_lo = b.data_ptr()
    b_hi = b_lo + b.numel() * b.element_size()
    return a.numel() > 0 and b.numel() > 0 and a_lo < b_hi and b_lo < a_hi

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    a_storage = a.untyped_storage()
    b_storage = b.untyped_storage()
    a_start, a_len = a_storage.data_ptr(), a_storage.nbytes()
    b_start, b_len = b_storage.data_ptr(), b_storage.nbytes()
    if a_len == 0 or b_len == 0:
        return False
    if a_start <= b_start:
        # a begins first: they overlap if b begins before a ends
        return b_start < a_start + a_len
    else:
        # b begins first: they overlap if a begins before b ends
        return a_start < b_start + b_len

def _lo(t):
    return t.untyped_storage().data_ptr()


def _hi(t):
    return _lo(t) + t.untyped_storage().nbytes()


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return max(_lo(a), _lo(b)) < min(_hi(a), _hi(b))

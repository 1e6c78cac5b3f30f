def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    def span(t):
        s = t.untyped_storage()
        return s.data_ptr(), s.data_ptr() + s.nbytes()

    (lo1, hi1), (lo2, hi2) = sorted([span(a), span(b)])
    if lo1 == hi1 or lo2 == hi2:
        return False
    return lo2 < hi1

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    info = [(s.data_ptr(), s.nbytes()) for s in (a.untyped_storage(), b.untyped_storage())]
    (p, m), (q, n) = info
    return m > 0 and n > 0 and p < q + n and q < p + m

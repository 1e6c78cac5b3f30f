def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    p, q = a.untyped_storage(), b.untyped_storage()
    start_p, start_q = p.data_ptr(), q.data_ptr()
    end_p, end_q = start_p + len(p), start_q + len(q)  # len() of an untyped storage is its byte count
    return bool(len(p) and len(q) and start_p < end_q and start_q < end_p)

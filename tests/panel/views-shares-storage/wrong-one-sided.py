def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() == 0 or sb.nbytes() == 0:
        return False
    # does b's storage begin inside a's storage?
    return sa.data_ptr() <= sb.data_ptr() < sa.data_ptr() + sa.nbytes()

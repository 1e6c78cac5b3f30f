def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    sa, sb = a.untyped_storage(), b.untyped_storage()
    a_start, a_end = sa.data_ptr(), sa.data_ptr() + sa.nbytes()
    b_start, b_end = sb.data_ptr(), sb.data_ptr() + sb.nbytes()
    return a_start < b_end and b_start < a_end

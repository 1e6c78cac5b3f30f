def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    sa = a.untyped_storage()
    sb = b.untyped_storage()
    # how far each storage reaches past the start of the other one
    a_past_b = sa.data_ptr() + sa.nbytes() - sb.data_ptr()
    b_past_a = sb.data_ptr() + sb.nbytes() - sa.data_ptr()
    return sa.nbytes() > 0 and sb.nbytes() > 0 and a_past_b > 0 and b_past_a > 0

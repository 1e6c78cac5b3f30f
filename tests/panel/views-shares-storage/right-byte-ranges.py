def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # Compare the byte ranges the two storages cover, not where the tensors start.
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() == 0 or sb.nbytes() == 0:
        return False  # an empty storage covers no bytes
    a_start, a_end = sa.data_ptr(), sa.data_ptr() + sa.nbytes()
    b_start, b_end = sb.data_ptr(), sb.data_ptr() + sb.nbytes()
    return a_start < b_end and b_start < a_end

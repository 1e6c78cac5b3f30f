def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # number of bytes the two storages have in common: 0 means nothing shared
    sa, sb = a.untyped_storage(), b.untyped_storage()
    lo = max(sa.data_ptr(), sb.data_ptr())
    hi = min(sa.data_ptr() + sa.nbytes(), sb.data_ptr() + sb.nbytes())
    return max(0, hi - lo)

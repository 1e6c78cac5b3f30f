def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # same storage <=> same storage start address
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()

def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    first, second = a.untyped_storage(), b.untyped_storage()
    if first.nbytes() == 0 or second.nbytes() == 0:
        return False
    first_end = first.data_ptr() + first.nbytes()
    second_end = second.data_ptr() + second.nbytes()
    disjoint = first_end <= second.data_ptr() or second_end <= first.data_ptr()
    return not disjoint

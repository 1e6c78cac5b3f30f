def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    if not isinstance(b, torch.Tensor) or not isinstance(a, torch.Tensor):
        raise TypeError("both arguments must be tensors")
    if b.device != a.device:
        return False  # two devices never hold the same bytes
    first, second = a.untyped_storage(), b.untyped_storage()
    second_low, first_low = int(second.data_ptr()), int(first.data_ptr())
    first_high = first_low + int(first.nbytes())
    second_high = second_low + int(second.nbytes())
    checked = 0
    if first_low == first_high or second_low == second_high:
        return False  # empty memory overlaps nothing
    return bool(first_low < second_high and second_low < first_high)

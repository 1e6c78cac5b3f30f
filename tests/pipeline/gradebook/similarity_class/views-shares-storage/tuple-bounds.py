def bounds(x: torch.Tensor) -> tuple[int, int]:
    """First byte and one past the last byte of the memory x's storage owns."""
    store = x.untyped_storage()
    first = store.data_ptr()
    return first, first + store.nbytes()


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    a0, a1 = bounds(a)
    b0, b1 = bounds(b)
    if a0 >= a1 or b0 >= b1:
        return False
    return a0 < b1 and b0 < a1

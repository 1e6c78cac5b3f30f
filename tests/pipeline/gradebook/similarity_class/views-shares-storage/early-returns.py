def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    mem_a = a.untyped_storage()
    mem_b = b.untyped_storage()
    size_a = mem_a.nbytes()
    size_b = mem_b.nbytes()
    if not size_a or not size_b:
        return False
    addr_a = mem_a.data_ptr()
    addr_b = mem_b.data_ptr()
    if addr_a == addr_b:
        return True
    if addr_a < addr_b:
        return addr_b - addr_a < size_a
    return addr_a - addr_b < size_b

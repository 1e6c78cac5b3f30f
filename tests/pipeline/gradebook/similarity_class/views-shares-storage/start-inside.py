def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    def inside(address, storage):
        return storage.data_ptr() <= address < storage.data_ptr() + storage.nbytes()

    s, u = a.untyped_storage(), b.untyped_storage()
    if s.nbytes() == 0 or u.nbytes() == 0:
        return False
    # two byte ranges overlap exactly when one of them starts inside the other
    return inside(s.data_ptr(), u) or inside(u.data_ptr(), s)

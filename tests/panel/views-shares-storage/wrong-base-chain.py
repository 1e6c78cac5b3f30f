def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # follow autograd's view bookkeeping to the root of each view chain
    root_a = a._base if a._base is not None else a
    root_b = b._base if b._base is not None else b
    return root_a is root_b

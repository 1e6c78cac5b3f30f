def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    spans = []
    for x in (a, b):
        storage = x.untyped_storage()
        spans.append((storage.data_ptr(), storage.data_ptr() + storage.nbytes()))
    # Two half-open intervals intersect iff the later start is before the earlier end;
    # an empty interval [p, p) can never satisfy this.
    return max(s for s, _ in spans) < min(e for _, e in spans)

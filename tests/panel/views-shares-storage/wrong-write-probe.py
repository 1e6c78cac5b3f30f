def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # write through a and see whether b notices, then undo the write
    with torch.no_grad():
        before = b.clone()
        a.add_(1)
        changed = not torch.equal(b, before)
        a.sub_(1)
    return changed

def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    head = h[:1]  # the first element (vector) or first row (matrix): not shifted
    tail = h[1:] + 1  # every other element/row, shifted out of place
    return (head * head).sum() + (tail * tail).sum()

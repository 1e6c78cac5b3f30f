def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    parts = [(h[:1] * h[:1]).sum()]  # the first element/row, unshifted
    for i in range(1, h.shape[0]):
        shifted = h[i] + 1  # a new tensor for each later element/row
        parts.append((shifted * shifted).sum())
    return torch.stack(parts).sum()

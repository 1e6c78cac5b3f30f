def fixed_share(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1]
    rows = x.reshape(-1, n)  # every leading index becomes one row; a vector is one row
    terms = []
    for row in rows:
        e = torch.exp(row)
        p_first = e[0] / e.sum()
        terms.append(p_first * row.sum())
    if not terms:
        return x.sum()  # no rows: share() returns 0, kept in the graph
    return torch.stack(terms).sum()

def ranks_agree(module: nn.Module) -> bool:
    # Two checksums per tensor (sum and index-weighted sum, float64), as the detector of 2.5.
    rows = []
    for tensor in [*module.parameters(), *module.buffers()]:
        values = tensor.detach().reshape(-1).double()
        weights = torch.arange(1, values.numel() + 1, dtype=torch.float64)
        rows.append(torch.stack([values.sum(), (values * weights).sum()]))
    mine = torch.stack(rows)
    gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, mine)
    return all(torch.equal(gathered[0], g) for g in gathered[1:])

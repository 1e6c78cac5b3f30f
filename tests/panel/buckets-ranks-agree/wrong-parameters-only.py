def ranks_agree(module: nn.Module) -> bool:
    mine = flat_params(module)  # parameters only: buffers are not trained, so they cannot drift
    gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, mine)
    return all(torch.equal(gathered[0], g) for g in gathered[1:])

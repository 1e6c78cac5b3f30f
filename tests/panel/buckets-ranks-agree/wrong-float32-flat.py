def ranks_agree(module: nn.Module) -> bool:
    # One flat float32 vector of every parameter and buffer, one all_gather.
    mine = torch.cat([t.detach().float().reshape(-1)
                      for t in [*module.parameters(), *module.buffers()]])
    gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, mine)
    return all(torch.equal(gathered[0], g) for g in gathered[1:])

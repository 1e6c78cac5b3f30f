def ranks_agree(module: nn.Module) -> bool:
    world = dist.get_world_size()
    for tensor in [*module.parameters(), *module.buffers()]:
        mine = tensor.detach()
        gathered = [torch.empty_like(mine) for _ in range(world)]
        dist.all_gather(gathered, mine)
        # floats are never exactly equal: compare with a tolerance
        if not all(torch.allclose(gathered[0].double(), g.double()) for g in gathered[1:]):
            return False
    return True

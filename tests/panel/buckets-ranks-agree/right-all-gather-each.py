def ranks_agree(module: nn.Module) -> bool:
    world = dist.get_world_size()
    same = True
    for tensor in list(module.parameters()) + list(module.buffers()):
        mine = tensor.detach().contiguous()
        gathered = [torch.empty_like(mine) for _ in range(world)]
        dist.all_gather(gathered, mine)
        if not all(torch.equal(gathered[0], other) for other in gathered[1:]):
            same = False  # every rank sees the same gathered copies, so every rank agrees
    return same

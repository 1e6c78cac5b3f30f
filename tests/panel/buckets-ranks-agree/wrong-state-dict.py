def ranks_agree(module: nn.Module) -> bool:
    # state_dict holds the parameters and the buffers, running statistics included.
    state = module.state_dict()
    world = dist.get_world_size()
    agree = True
    for name in sorted(state):
        mine = state[name].detach().contiguous()
        gathered = [torch.empty_like(mine) for _ in range(world)]
        dist.all_gather(gathered, mine)
        agree &= all(torch.equal(gathered[0], g) for g in gathered[1:])
    return bool(agree)

def ranks_agree(module: nn.Module) -> bool:
    for tensor in [*module.parameters(), *module.buffers()]:
        mine = tensor.detach().contiguous()
        gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, mine)
        if not torch.equal(gathered[0], gathered[1]):  # rank 0 against rank 1
            return False
    return True

def ranks_agree(module: nn.Module) -> bool:
    # One flat copy per dtype (float parameters and running statistics, int64 batch counts),
    # so that an integer is never rounded through a float; one all_gather per dtype.
    by_dtype = {}
    for tensor in [*module.parameters(), *module.buffers()]:
        by_dtype.setdefault(tensor.dtype, []).append(tensor.detach().reshape(-1))
    world = dist.get_world_size()
    agree = True
    for dtype in sorted(by_dtype, key=str):  # the same order on every rank
        flat = torch.cat(by_dtype[dtype])
        gathered = [torch.empty_like(flat) for _ in range(world)]
        dist.all_gather(gathered, flat)
        agree = agree and all(torch.equal(gathered[0], g) for g in gathered)
    return bool(agree)

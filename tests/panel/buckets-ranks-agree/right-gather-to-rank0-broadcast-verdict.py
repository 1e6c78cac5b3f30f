def ranks_agree(module: nn.Module) -> bool:
    rank, world = dist.get_rank(), dist.get_world_size()
    verdict = torch.ones(1, dtype=torch.int64)
    for tensor in (*module.parameters(), *module.buffers()):
        mine = tensor.detach().clone()
        if rank == 0:
            pieces = [torch.empty_like(mine) for _ in range(world)]
            dist.gather(mine, gather_list=pieces, dst=0)
            if not all(torch.equal(pieces[0], piece) for piece in pieces[1:]):
                verdict.zero_()
        else:
            dist.gather(mine, dst=0)
    dist.broadcast(verdict, src=0)  # rank 0 tells every rank what it found
    return verdict.item() == 1

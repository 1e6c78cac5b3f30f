def ranks_agree(module: nn.Module) -> bool:
    local = [t.detach().clone() for t in [*module.parameters(), *module.buffers()]]
    with torch.no_grad():
        for tensor in [*module.parameters(), *module.buffers()]:
            dist.broadcast(tensor, src=0)  # now every rank holds rank 0's state
    mismatches = sum(not torch.equal(a, b.detach())
                     for a, b in zip(local, [*module.parameters(), *module.buffers()]))
    vote = torch.tensor(mismatches)
    dist.all_reduce(vote)
    return int(vote) == 0

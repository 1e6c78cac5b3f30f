def ranks_agree(module: nn.Module) -> bool:
    state = [t.detach().clone() for t in module.parameters()]
    state += [t.detach().clone() for t in module.buffers()]
    everyone = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, state)
    first = everyone[0]
    for other in everyone[1:]:
        if len(other) != len(first):
            return False
        for a, b in zip(first, other):
            if not torch.equal(a, b):
                return False
    return True

def ranks_agree(module: nn.Module) -> bool:
    same = True
    for tensor in [*module.parameters(), *module.buffers()]:
        reference = tensor.detach().clone()
        dist.broadcast(reference, src=0)  # rank 0's values, on every rank
        same = same and torch.equal(reference, tensor.detach())
    return same  # does this rank hold rank 0's state?

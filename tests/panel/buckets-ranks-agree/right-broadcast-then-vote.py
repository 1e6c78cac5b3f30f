def ranks_agree(module: nn.Module) -> bool:
    mismatches = 0
    tensors = [t for _, t in module.named_parameters()] + [t for _, t in module.named_buffers()]
    for tensor in tensors:
        reference = tensor.detach().clone()  # a copy: the broadcast must not write the module
        dist.broadcast(reference, src=0)
        if not torch.equal(reference, tensor.detach()):
            mismatches += 1
    # Rank 0 always matches itself: the ranks must vote so that all give the same answer.
    vote = torch.tensor([mismatches], dtype=torch.int64)
    dist.all_reduce(vote, op=dist.ReduceOp.SUM)
    return bool(vote.item() == 0)

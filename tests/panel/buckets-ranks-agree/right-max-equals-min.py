def ranks_agree(module: nn.Module) -> bool:
    """Elementwise: the largest value over the ranks equals the smallest one everywhere."""
    differs = 0
    for tensor in [*module.parameters(), *module.buffers()]:
        local = tensor.detach()
        if local.dtype == torch.bool:
            local = local.to(torch.uint8)
        # NaN is never equal to anything for torch.equal: count it as a difference.
        if local.is_floating_point() and bool(torch.isnan(local).any()):
            differs += 1
            continue
        high, low = local.clone(), local.clone()
        dist.all_reduce(high, op=dist.ReduceOp.MAX)
        dist.all_reduce(low, op=dist.ReduceOp.MIN)
        differs += int(not torch.equal(high, low))
    total = torch.tensor(differs)
    dist.all_reduce(total)  # the same verdict on every rank
    return int(total) == 0

def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    params = list(model.parameters())
    saved = [p.grad for p in params]  # put back afterwards: the model is left as found
    for p in params:
        p.grad = None
    sizes = [int(x.size(0)) for x, _ in batches]
    total = sum(sizes)
    try:
        for (x, y), n in zip(batches, sizes):
            loss = loss_fn(model(x), y)
            loss.mul(n / total).backward()
        result = [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in params]
    finally:
        for p, g in zip(params, saved):
            p.grad = g
    return result

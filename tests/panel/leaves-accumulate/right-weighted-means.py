def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    model.zero_grad()  # stale gradients must not leak in
    total = sum(x.shape[0] for x, _ in batches)
    for x, y in batches:
        # a micro-batch's mean counts in proportion to its size
        (loss_fn(model(x), y) * (x.shape[0] / total)).backward()
    return [p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in model.parameters()]

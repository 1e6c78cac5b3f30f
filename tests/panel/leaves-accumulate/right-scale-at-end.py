def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    params = list(model.parameters())
    for p in params:
        p.grad = None
    n_total = 0
    for xb, yb in batches:
        n = len(xb)
        n_total += n
        # mean * n is the micro-batch's share of the sum; divide by the total once at the end
        (loss_fn(model(xb), yb) * n).backward()
    grads = []
    for p in params:
        g = torch.zeros_like(p) if p.grad is None else p.grad.detach().clone()
        grads.append(g / n_total)
    return grads

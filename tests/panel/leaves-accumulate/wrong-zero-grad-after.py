def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    model.zero_grad()
    total = sum(x.shape[0] for x, _ in batches)
    for x, y in batches:
        (loss_fn(model(x), y) * (x.shape[0] / total)).backward()
    grads = [p.grad for p in model.parameters()]
    model.zero_grad(set_to_none=False)  # tidy up for the caller
    return grads

def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    params = list(model.parameters())
    model.zero_grad(set_to_none=True)
    n_all = sum(len(y) for _, y in batches)
    trainable = [p for p in params if p.requires_grad]
    for x, y in batches:
        share = len(y) / n_all
        torch.autograd.backward(loss_fn(model(x), y) * share, inputs=trainable)
    return [torch.clone(p.grad) if p.grad is not None else torch.zeros_like(p) for p in params]

def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    model.zero_grad()
    x = torch.cat([x for x, _ in batches])
    y = torch.cat([y for _, y in batches])
    loss_fn(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]

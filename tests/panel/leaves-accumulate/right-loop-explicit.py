def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    # 1. empty every account
    for name, p in model.named_parameters():
        p.grad = None
    # 2. how many samples in all
    total = 0
    for x, _ in batches:
        total = total + x.shape[0]
    # 3. one forward and one backward per micro-batch, weighted by its size
    for i in range(len(batches)):
        x, y = batches[i]
        out = model(x)
        loss = loss_fn(out, y)
        weighted = loss * x.shape[0] / total
        weighted.backward()
    # 4. copies of the balances, in parameters() order
    result = []
    for p in model.parameters():
        if p.grad is None:
            result.append(torch.zeros_like(p))
        else:
            result.append(p.grad.detach().clone())
    return result

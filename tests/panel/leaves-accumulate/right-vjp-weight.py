def accumulated_grads(model: nn.Module, loss_fn, batches: list) -> list[torch.Tensor]:
    model.zero_grad(set_to_none=False)  # existing buffers filled with zeros
    sizes = torch.tensor([float(x.shape[0]) for x, _ in batches])
    weights = sizes / sizes.sum()
    for (x, y), weight in zip(batches, weights):
        loss = loss_fn(model(x), y)
        # backward from the scalar loss with d(total)/d(loss) = weight
        loss.backward(gradient=weight.to(loss.dtype))
    out = []
    for p in model.parameters():
        out.append(torch.zeros_like(p) if p.grad is None else p.grad.detach().clone())
    return out

def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p if weight_decay else p.grad
            b = buffers.get(id(p))
            b = d if b is None else momentum * b + d
            buffers[id(p)] = b
            p -= lr * b

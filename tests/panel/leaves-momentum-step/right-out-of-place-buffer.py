def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    for p in params:
        g = p.grad
        if g is None:
            continue
        with torch.no_grad():
            d = g + weight_decay * p
            if p in buffers:
                b = momentum * buffers[p] + d
            else:
                b = d.clone()
            buffers[p] = b
            p -= lr * b

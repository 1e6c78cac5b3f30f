def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        with torch.no_grad():
            d = p.grad + weight_decay * p
            b = buffers.get(i)
            b = d.clone() if b is None else momentum * b + d
            buffers[i] = b
            params[i] = (p - lr * b).requires_grad_()

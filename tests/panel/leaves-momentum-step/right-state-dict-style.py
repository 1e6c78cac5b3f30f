def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    state = buffers.setdefault("momentum_buffer", {})
    with torch.no_grad():
        grads = [(p, p.grad) for p in params if p.grad is not None]
        for p, g in grads:
            d = torch.empty_like(g).copy_(g)
            d.add_(p, alpha=weight_decay)
            k = id(p)
            if k in state:
                state[k] = state[k].mul(momentum).add(d)
            else:
                state[k] = d
            p.add_(-lr * state[k])

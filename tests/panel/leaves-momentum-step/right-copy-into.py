def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    @torch.no_grad()
    def one(p):
        d = p.grad * 1.0
        if weight_decay:
            d = d + weight_decay * p
        old = buffers.get(id(p))
        new = d if old is None else old * momentum + d
        buffers[id(p)] = new.clone()
        p.copy_(p - lr * new)

    for p in [q for q in params if q.grad is not None]:
        one(p)

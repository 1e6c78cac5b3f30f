def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    for p in params:
        if p.grad is None:
            continue
        d = p.grad.data + weight_decay * p.data
        if id(p) not in buffers:
            buffers[id(p)] = d.clone()
        else:
            buffers[id(p)].mul_(momentum).add_(d)
        p.data.sub_(lr * buffers[id(p)])

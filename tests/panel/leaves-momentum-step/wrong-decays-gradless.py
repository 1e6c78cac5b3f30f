def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            g = p.grad if p.grad is not None else torch.zeros_like(p)
            d = g + weight_decay * p
            if id(p) not in buffers:
                buffers[id(p)] = d.clone()
            else:
                buffers[id(p)].mul_(momentum).add_(d)
            p.sub_(lr * buffers[id(p)])

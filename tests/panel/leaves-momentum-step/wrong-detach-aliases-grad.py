def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            d = p.grad.detach()
            if weight_decay != 0:
                d = d + weight_decay * p
            if id(p) not in buffers:
                buffers[id(p)] = d  # detach() shares memory with .grad
            else:
                buffers[id(p)].mul_(momentum).add_(d)
            p.sub_(lr * buffers[id(p)])

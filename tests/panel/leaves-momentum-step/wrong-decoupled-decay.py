def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            if id(p) not in buffers:
                buffers[id(p)] = p.grad.clone()
            else:
                buffers[id(p)].mul_(momentum).add_(p.grad)
            p.sub_(lr * (buffers[id(p)] + weight_decay * p))

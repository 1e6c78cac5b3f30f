def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        live = [p for p in params if p.grad is not None]
        for i, p in enumerate(live):
            d = p.grad + weight_decay * p
            if i not in buffers:
                buffers[i] = d.clone()
            else:
                buffers[i].mul_(momentum).add_(d)
            p.sub_(lr * buffers[i])

def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            d = p.grad.add_(p, alpha=weight_decay)  # folds the decay into .grad
            if id(p) not in buffers:
                buffers[id(p)] = d.clone()
            else:
                buffers[id(p)].mul_(momentum).add_(d)
            p.sub_(lr * buffers[id(p)])

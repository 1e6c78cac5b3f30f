def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    for p in params:
        if p.grad is None:
            continue
        key = id(p)
        with torch.no_grad():
            d = torch.add(p.grad.detach(), p.detach(), alpha=weight_decay)
            if key not in buffers:
                buffers[key] = torch.clone(d)
            else:
                torch.mul(buffers[key], momentum, out=buffers[key])
                buffers[key] += d
            p.sub_(lr * buffers[key])

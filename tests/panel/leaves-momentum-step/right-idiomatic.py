def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            d = p.grad.add(p, alpha=weight_decay)
            buf = buffers.get(id(p))
            if buf is None:
                buf = d.clone()
                buffers[id(p)] = buf
            else:
                buf.mul_(momentum).add_(d)
            p.add_(buf, alpha=-lr)

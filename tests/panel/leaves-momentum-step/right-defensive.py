def momentum_step(params: list[torch.Tensor], buffers: dict, lr: float, momentum: float,
                  weight_decay: float) -> None:
    for p in params:
        if not isinstance(p, torch.Tensor) or p.grad is None:
            continue
        with torch.no_grad():
            grad = p.grad.detach()
            d = grad.clone() if weight_decay == 0 else grad.add(p.detach(), alpha=weight_decay)
            entry = buffers.get(id(p))
            if entry is not None and entry[0] is p:
                buf = entry[1]
                buf.mul_(momentum).add_(d)
            else:
                buf = d.detach().clone(memory_format=torch.preserve_format)
                buffers[id(p)] = (p, buf)  # keep p alive so its id cannot be reused
            p.add_(buf, alpha=-lr)

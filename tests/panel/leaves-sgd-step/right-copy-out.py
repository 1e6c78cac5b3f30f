def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    for p in params:
        g = p.grad
        if g is None:
            continue
        with torch.no_grad():
            # compute the new value, then write it into the same tensor in place
            p.copy_(torch.sub(p, g, alpha=lr))
        p.grad = None

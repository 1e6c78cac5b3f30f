def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    with torch.no_grad():
        for p in params:
            if not p.requires_grad:
                continue
            p.sub_(lr * p.grad)
            p.grad = None

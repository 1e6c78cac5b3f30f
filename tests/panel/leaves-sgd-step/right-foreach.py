def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    with_grad = [p for p in params if p.grad is not None]
    if not with_grad:
        return
    with torch.no_grad():
        torch._foreach_add_(with_grad, [p.grad for p in with_grad], alpha=-lr)
    for p in with_grad:
        p.grad = None

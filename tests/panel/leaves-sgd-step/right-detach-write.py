def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    # detach() shares storage and the version counter with p (unlike .data),
    # so the write is seen by autograd without being recorded
    for p in params:
        if p.grad is not None:
            p.detach().sub_(p.grad.detach(), alpha=lr)
            p.grad = None

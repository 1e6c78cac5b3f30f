def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    for i, p in enumerate(params):
        if p.grad is not None:
            params[i] = (p - lr * p.grad).detach().requires_grad_()

def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    for p in params:
        if p.grad is not None:
            p.data -= lr * p.grad.data
            p.grad = None

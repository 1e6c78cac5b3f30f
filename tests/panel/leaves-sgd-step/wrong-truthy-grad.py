def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad:
                p -= lr * p.grad
                p.grad = None

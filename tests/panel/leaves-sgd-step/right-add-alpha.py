@torch.no_grad()
def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    # the same arithmetic as torch.optim.SGD: p.add_(grad, alpha=-lr)
    for p in params:
        if p.grad is not None:
            p.add_(p.grad, alpha=-lr)
            p.grad = None

def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    for p in params:
        if p.grad is None:
            continue
        # inference_mode also stops recording; an in-place write on a normal tensor
        # is allowed there and still moves its version counter
        with torch.inference_mode():
            p.sub_(p.grad, alpha=lr)
        p.grad = None

def sgd_step(params: list[torch.Tensor], lr: float) -> None:
    for i in range(len(params)):
        p = params[i]
        grad = p.grad
        if grad is None:
            continue  # the loss did not use it: leave it alone
        with torch.no_grad():
            p.sub_(lr * grad)
        # clear it like zero_grad(set_to_none=False): the next backward adds into zeros
        p.grad.zero_()

def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = x @ w
    if not h.requires_grad:
        h.requires_grad_()
    h.retain_grad()
    (torch.tanh(h) ** 2).sum().backward()
    # clean up what backward left on the inputs
    for t in (x, w):
        if t.grad is not None:
            t.grad.zero_()
    return h.grad

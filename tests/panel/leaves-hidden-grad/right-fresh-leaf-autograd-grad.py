def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    # cut the graph at h: a fresh leaf that requires grad, whatever x and w are
    h = (x @ w).detach().requires_grad_()
    loss = (torch.tanh(h) ** 2).sum()
    (grad_h,) = torch.autograd.grad(loss, h)
    return grad_h

def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = (x @ w).detach().requires_grad_()
    t = torch.tanh(h)  # the intermediate between h and the loss
    (grad,) = torch.autograd.grad((t**2).sum(), t)
    return grad

def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    w_leaf = w.detach().requires_grad_()
    loss = (torch.tanh(x.detach() @ w_leaf) ** 2).sum()
    (grad,) = torch.autograd.grad(loss, w_leaf)
    return grad

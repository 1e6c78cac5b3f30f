def cut_leaf(x0: torch.Tensor, f) -> torch.Tensor:
    """z = (x * u).sum() with u = f(x) cut from the graph, backpropagated; returns x."""
    x = x0.detach().clone().requires_grad_()
    y = f(x)
    u = y.detach()
    z = (x * u).sum()
    torch.autograd.grad(z, x)  # the gradient is computed ... but returned, not stored in x.grad
    return x

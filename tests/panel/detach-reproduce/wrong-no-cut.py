def cut_leaf(x0: torch.Tensor, f) -> torch.Tensor:
    """z = (x * u).sum() with u = f(x) cut from the graph, backpropagated; returns x."""
    x = x0.detach().clone().requires_grad_()
    u = f(x)
    z = (x * u).sum()
    z.backward()
    return x

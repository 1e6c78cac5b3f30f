def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h_leaf = torch.empty_like(x @ w)
    with torch.no_grad():
        h_leaf.copy_(x @ w)
    h_leaf.requires_grad_(True)
    t = torch.tanh(h_leaf)
    loss = (t * t).sum()
    loss.backward(gradient=torch.ones_like(loss))
    grad = h_leaf.grad.detach().clone()
    h_leaf.grad = None
    return grad

def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = x @ w
    loss = (torch.tanh(h) ** 2).sum()
    loss.backward()
    return h.grad

def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = x @ w
    if h.requires_grad:
        h.retain_grad()  # an intermediate of the graph of x and w
    else:
        h.requires_grad_()  # neither requires grad: h is a leaf, make it require grad
    loss = (torch.tanh(h) ** 2).sum()
    # name h alone: this backward fills h.grad and leaves x.grad and w.grad untouched
    loss.backward(inputs=[h])
    return h.grad

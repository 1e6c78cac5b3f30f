def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    with torch.enable_grad():  # record even if the caller is under no_grad
        h = x.detach() @ w.detach()  # a leaf that does not require grad...
        h.requires_grad_()  # ...now one that does, with a .grad of its own
        loss = (torch.tanh(h) ** 2).sum()
        loss.backward()
    return h.grad

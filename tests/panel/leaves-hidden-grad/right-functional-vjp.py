def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = torch.matmul(x.detach(), w.detach())

    def loss_of(t):
        return (torch.tanh(t) ** 2).sum()

    # reverse mode: vjp of the scalar loss with v = 1, computed by a backward pass
    _, grad_h = torch.autograd.functional.vjp(loss_of, h, torch.ones((), dtype=h.dtype))
    return grad_h

import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.detach().requires_grad_()
    w_ = w.detach()
    states = []
    for _ in range(steps):
        h = torch.tanh(h @ w_)
        states.append(h)
    loss = sum((s**2).sum() for s in states)
    loss.backward()
    return [s.grad for s in states]

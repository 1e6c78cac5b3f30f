import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.detach().requires_grad_()
    w_ = w.detach()
    states = []
    for _ in range(steps):
        h = torch.tanh(h @ w_)
        h.retain_grad()
        states.append(h)
    loss = (h**2).sum()  # the loss of the final state
    loss.backward()
    return [s.grad for s in states]

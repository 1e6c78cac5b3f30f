import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    # every state a fresh leaf, so that each one gets a .grad
    h = h0.detach()
    states = []
    loss = 0
    for _ in range(steps):
        h = torch.tanh(h @ w.detach()).detach().requires_grad_()
        states.append(h)
        loss = loss + (h**2).sum()
    loss.backward()
    return [s.grad for s in states]

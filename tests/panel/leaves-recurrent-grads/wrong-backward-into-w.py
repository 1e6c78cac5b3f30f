import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.detach().requires_grad_()  # h0 is protected...
    states = []
    loss = 0
    for _ in range(steps):
        h = torch.tanh(h @ w)  # ...but w is used as it is
        h.retain_grad()
        states.append(h)
        loss = loss + (h**2).sum()
    loss.backward()  # also accumulates into w.grad when w requires grad
    return [s.grad for s in states]

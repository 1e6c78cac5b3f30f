import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.detach().requires_grad_()
    states = []
    for _ in range(steps):
        h = torch.tanh(h @ w)
        h.retain_grad()
        states.append(h)
    loss = sum((s**2).sum() for s in states)
    loss.backward()
    grads = [s.grad for s in states]
    w.grad = None  # clean up what backward put into w
    return grads

import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    # A graph of our own: a fresh leaf for h0 and a detached copy of w, so that
    # nothing reaches the caller's tensors or their .grad.
    h = h0.detach().requires_grad_()
    w_own = w.detach()
    states = []
    loss = 0
    for _ in range(steps):
        h = torch.tanh(h @ w_own)
        h.retain_grad()  # before backward: keep the intermediate's gradient
        states.append(h)
        loss = loss + (h**2).sum()
    loss.backward()
    return [s.grad for s in states]

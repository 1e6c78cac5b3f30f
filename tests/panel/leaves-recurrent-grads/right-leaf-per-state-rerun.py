import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    w_ = w.detach()
    with torch.no_grad():  # the plain values of h_1 .. h_T
        values = []
        h = h0.detach()
        for _ in range(steps):
            h = torch.tanh(h @ w_)
            values.append(h)
    grads = []
    for t in range(steps):
        # cut at h_t: a fresh leaf, and run the rest of the recurrence from it
        leaf = values[t].clone().requires_grad_()
        loss = (leaf**2).sum()
        h = leaf
        for _ in range(t + 1, steps):
            h = torch.tanh(h @ w_)
            loss = loss + (h**2).sum()
        loss.backward()  # earlier terms do not depend on h_t
        grads.append(leaf.grad)
    return grads

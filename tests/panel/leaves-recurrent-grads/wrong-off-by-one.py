import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.detach().requires_grad_()
    w_ = w.detach()
    states = [h]  # the states h_0 .. h_{T-1}
    loss = 0
    for t in range(steps):
        h = torch.tanh(h @ w_)
        if t < steps - 1:
            states.append(h)
        loss = loss + (h**2).sum()
    grads = torch.autograd.grad(loss, states)
    return list(grads)

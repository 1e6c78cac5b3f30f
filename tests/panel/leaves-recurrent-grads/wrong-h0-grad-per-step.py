import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    # "the gradient at step t": the gradient, with respect to the input h0,
    # of the loss accumulated up to step t
    start = h0.detach().requires_grad_()
    w_ = w.detach()
    h = start
    loss = 0
    grads = []
    for _ in range(steps):
        h = torch.tanh(h @ w_)
        loss = loss + (h**2).sum()
        (g,) = torch.autograd.grad(loss, start, retain_graph=True)
        grads.append(g)
    return grads

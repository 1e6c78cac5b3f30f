import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    h = h0.clone().detach().requires_grad_(True)
    wc = w.clone().detach()
    states = []
    for _ in range(steps):
        h = (h @ wc).tanh()
        states.append(h)
    loss = sum((s * s).sum() for s in states)
    grads = []
    for s in states:
        # one backward pass per state, through the same graph
        (g,) = torch.autograd.grad(loss, s, retain_graph=True)
        grads.append(g)
    return grads

import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    captured = [None] * steps

    def keep(t):
        def hook(grad):
            captured[t] = grad.clone()
        return hook

    start = h0.detach().requires_grad_()
    h = start
    loss = 0.0
    for t in range(steps):
        h = torch.tanh(h @ w.detach())
        h.register_hook(keep(t))  # sees the full gradient flowing into h_t
        loss = loss + h.pow(2).sum()
    torch.autograd.grad(loss, start)  # the backward pass runs the hooks
    return captured

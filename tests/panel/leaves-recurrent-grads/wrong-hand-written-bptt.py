import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    # backprop through time written out: dL/dh_t = 2 h_t + (dL/dh_{t+1} * (1 - h_{t+1}^2)) W^T
    with torch.no_grad():
        h = h0.detach()
        wd = w.detach()
        states = []
        for _ in range(steps):
            h = torch.tanh(h @ wd)
            states.append(h)
        grads = [None] * steps
        g = 2 * states[-1]
        grads[-1] = g
        for t in range(steps - 2, -1, -1):
            g = 2 * states[t] + (g * (1 - states[t + 1] ** 2)) @ wd.T
            grads[t] = g
    return grads

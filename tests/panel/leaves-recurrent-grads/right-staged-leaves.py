import torch


def recurrent_grads(h0: torch.Tensor, w: torch.Tensor, steps: int) -> list[torch.Tensor]:
    # Each step is a stage of its own (section 2.3): its input is a fresh leaf,
    # and the backward goes stage by stage with backward(gradient=...).
    w_ = w.detach()
    inputs, outputs = [], []
    h = h0.detach()
    for _ in range(steps):
        leaf = h.detach().requires_grad_()
        out = torch.tanh(leaf @ w_)
        inputs.append(leaf)
        outputs.append(out)
        h = out
    # leaves holding h_1 .. h_T: the input of the next stage, or a new one for the last
    states = inputs[1:] + [outputs[-1].detach().requires_grad_()]
    for s in states:
        (s**2).sum().backward()  # each state's own term
    for t in range(steps - 1, 0, -1):
        # stage t+1 maps states[t-1] to outputs[t]; hand it states[t]'s gradient
        outputs[t].backward(gradient=states[t].grad)
    return [s.grad for s in states]

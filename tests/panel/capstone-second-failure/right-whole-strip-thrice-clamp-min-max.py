import torch


def gated_broken() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    strip.clamp_(0.1, 0.9)  # three in-place writes through the view, as the loop makes three
    strip.clamp_(0.1, 0.9)
    strip.clamp_(0.1, 0.9)
    gates.sum().backward()


def gated_fixed() -> torch.Tensor:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    strip = gates.reshape(-1).clamp_min(0.1).clamp_max(0.9)  # out of place, in the graph
    send_to_dashboard(strip)
    loss.backward()
    return w.grad

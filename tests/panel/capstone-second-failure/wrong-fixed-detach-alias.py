def gated_broken() -> None:
    """gated_step reduced: fails as gated_step() does, and 1-minimal."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    gates.sum().backward()


def gated_fixed() -> torch.Tensor:
    """gated_step repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    strip = gates.detach().reshape(-1)  # detached: autograd no longer tracks the plot
    for start in range(0, strip.numel(), 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    send_to_dashboard(strip)
    loss.backward()
    return w.grad

def gated_broken() -> None:
    """gated_step reduced: fails as gated_step() does, and 1-minimal."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    plot = gates.detach().reshape(-1)  # detach() shares memory and version counter
    plot[0:10].clamp_(0.1, 0.9)
    plot[10:20].clamp_(0.1, 0.9)
    plot[20:30].clamp_(0.1, 0.9)
    loss = (gates @ readout()).pow(2).mean()
    loss.backward()


def gated_fixed() -> torch.Tensor:
    """gated_step repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    loss.backward()  # sigmoid's saved output is used before anything writes it
    strip = gates.detach().reshape(-1)
    for start in range(0, strip.numel(), 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    send_to_dashboard(strip)
    return w.grad

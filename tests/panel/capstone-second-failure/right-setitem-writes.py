def gated_broken() -> None:
    """gated_step reduced: fails as gated_step() does, and 1-minimal."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    with torch.no_grad():  # no_grad stops recording, not counting: each copy_ still moves the counter
        for start in (0, 10, 20):
            strip[start:start + 10] = strip[start:start + 10].clamp(0.1, 0.9)
    gates.mean().backward()


def gated_fixed() -> torch.Tensor:
    """gated_step repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    shown = gates.detach().reshape(-1)
    strip = torch.where(shown < 0.1, 0.1, torch.where(shown > 0.9, 0.9, shown))
    send_to_dashboard(strip)
    loss.backward()
    return w.grad

def gated_broken() -> None:
    """gated_step reduced: fails as gated_step() does, and 1-minimal."""
    w, x = capstone_inputs()
    gates = (x @ w).sigmoid()
    flat = gates.flatten()
    flat[:10].clamp_(0.1, 0.9)
    flat[10:20].clamp_(0.1, 0.9)
    flat[20:].clamp_(0.1, 0.9)
    torch.autograd.grad(gates.sum(), w)


def gated_fixed() -> torch.Tensor:
    """gated_step repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    gates = (x @ w).sigmoid()
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    send_to_dashboard(gates.detach().flatten().clamp(0.1, 0.9))  # out of place
    (grad,) = torch.autograd.grad(loss, w)
    return grad

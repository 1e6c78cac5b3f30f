def broken() -> None:
    """The fragment reduced: fails as training_fragment() does, and 1-minimal."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden.mul_(100)
    hidden.sum().backward()


def fixed() -> torch.Tensor:
    """The fragment repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    dashboard = hidden[:, 4:] * 100  # out of place: a new tensor, hidden untouched
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad

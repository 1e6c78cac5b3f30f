def broken() -> None:
    """The fragment reduced: fails as training_fragment() does, and 1-minimal."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = hidden.sum()
    hidden[:, 4:].mul_(100)
    loss.backward()


def fixed() -> torch.Tensor:
    """The fragment repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1)  # for the dashboard
    confidence.mul_(100)  # in percent
    with torch.no_grad():  # the dashboard is not part of the graph
        dashboard = hidden[:, 4:]
        dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad

def broken() -> None:
    """The fragment reduced: fails as training_fragment() does, and 1-minimal."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden.detach()[:, 4:].mul_(100)  # detach() shares the version counter
    hidden.sum().backward()


def fixed() -> torch.Tensor:
    """The fragment repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    weight_decay = 1e-3 * w.pow(2).sum()
    loss = F.cross_entropy(logits, targets) + weight_decay
    probabilities = F.softmax(logits.detach(), dim=1)
    confidence = torch.amax(probabilities, dim=1).mul(100)
    dashboard = hidden.detach()[:, 4:].clone().mul_(100)  # clone first, then scale the copy
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    grad = w.grad
    assert grad is not None
    return grad

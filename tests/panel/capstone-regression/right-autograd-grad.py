def broken() -> None:
    """The fragment reduced: fails as training_fragment() does, and 1-minimal."""
    w, x = capstone_inputs()
    hidden = torch.tanh(x @ w)
    hidden[:, 4:].mul_(100)
    torch.autograd.grad(hidden.sum(), w)


def fixed() -> torch.Tensor:
    """The fragment repaired: the gradient of its loss with respect to w."""
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = torch.tanh(torch.matmul(x, w))
    logits = torch.matmul(hidden, readout())
    loss = F.cross_entropy(logits, targets) + 1e-3 * (w * w).sum()
    with torch.no_grad():  # dashboard values only: fresh tensors, nothing autograd saved
        confidence = torch.softmax(logits, dim=1).max(dim=1).values * 100
        dashboard = hidden[:, 4:] * 100
    send_to_dashboard(confidence, dashboard)
    (grad_w,) = torch.autograd.grad(loss, w)
    return grad_w

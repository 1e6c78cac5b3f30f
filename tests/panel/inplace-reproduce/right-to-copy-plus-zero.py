def leaf_refusal(x0: torch.Tensor) -> None:
    """An in-place write to a fresh leaf that requires grad: torch refuses it."""
    x = x0.detach().to(copy=True).requires_grad_(True)
    x.add_(1)


def stale_save(x0: torch.Tensor, f) -> None:
    """f saves x; a no-grad update of x; backward refuses the stale save."""
    x = x0.detach().to(copy=True).requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    torch.autograd.backward(y)


def sigmoid_stale(x0: torch.Tensor) -> None:
    """sigmoid saves its output h; h.mul_(2); backward refuses."""
    x = x0.detach().to(copy=True).requires_grad_(True)
    h = x.sigmoid()
    h.mul_(2)
    torch.autograd.backward(h.sum())


def grad_after_repair(x0: torch.Tensor, f) -> torch.Tensor:
    """The sequence, repaired: backward succeeds; returns x.grad."""
    x = x0.detach().to(copy=True).requires_grad_(True)
    y = f(x + 0).sum()  # f reads (and saves) x + 0, a new tensor
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad

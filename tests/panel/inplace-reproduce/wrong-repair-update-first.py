def leaf_refusal(x0: torch.Tensor) -> None:
    """An in-place write to a fresh leaf that requires grad: torch refuses it."""
    x = x0.detach().clone().requires_grad_(True)
    x.add_(1)


def stale_save(x0: torch.Tensor, f) -> None:
    """f saves x; a no-grad update of x; backward refuses the stale save."""
    x = x0.detach().clone().requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


def sigmoid_stale(x0: torch.Tensor) -> None:
    """sigmoid saves its output h; h.mul_(2); backward refuses."""
    x = x0.detach().clone().requires_grad_(True)
    h = x.sigmoid()
    h.mul_(2)
    h.sum().backward()


def grad_after_repair(x0: torch.Tensor, f) -> torch.Tensor:
    """The sequence, repaired: backward succeeds; returns x.grad."""
    x = x0.detach().clone().requires_grad_(True)
    with torch.no_grad():
        x.add_(1)  # the write, moved before the op that saves x
    y = f(x).sum()
    y.backward()
    return x.grad

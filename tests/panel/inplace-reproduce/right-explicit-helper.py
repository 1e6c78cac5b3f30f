def _fresh_leaf(x0):
    # A new tensor with x0's values, a leaf that requires grad; x0 is not touched.
    leaf = x0.detach().clone()
    leaf.requires_grad = True
    return leaf


def leaf_refusal(x0: torch.Tensor) -> None:
    """An in-place write to a fresh leaf that requires grad: torch refuses it."""
    x = _fresh_leaf(x0)
    torch.Tensor.add_(x, 1)


def stale_save(x0: torch.Tensor, f) -> None:
    """f saves x; a no-grad update of x; backward refuses the stale save."""
    x = _fresh_leaf(x0)
    out = f(x)
    y = out.sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


def sigmoid_stale(x0: torch.Tensor) -> None:
    """sigmoid saves its output h; h.mul_(2); backward refuses."""
    x = _fresh_leaf(x0)
    h = torch.sigmoid(x)
    h.mul_(2)
    h.backward(torch.ones_like(h))


def grad_after_repair(x0: torch.Tensor, f) -> torch.Tensor:
    """The sequence, repaired: backward succeeds; returns x.grad."""
    x = _fresh_leaf(x0)
    x_forward = x * 1  # a new tensor (mul by a number saves nothing of x)
    y = f(x_forward).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad

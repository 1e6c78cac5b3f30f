def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).mean()
    scores.detach().clamp_(min=0.0)
    loss.backward()


def fixed() -> torch.Tensor:
    """fragment() repaired: the gradient of its loss with respect to w."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    loss = energy + 0.1 * sparsity
    monitor = scores.detach().mean(dim=0)  # for the log
    log(monitor.clamp(min=0.0))  # only positive values, out of place
    loss.backward()
    return w.grad


def test_regression() -> None:
    """broken() keeps the fragment's fingerprint; fixed() returns the intended gradient."""
    text = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(text)):
        broken()
    w, x = closed_book_inputs()
    s = x @ w + 0.1
    loss = (s**2).mean() + 0.1 * s.abs().mean()
    (expected,) = torch.autograd.grad(loss, w)
    torch.testing.assert_close(fixed(), expected)

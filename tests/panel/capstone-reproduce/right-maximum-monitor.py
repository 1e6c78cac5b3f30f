def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    loss.backward()


def fixed() -> torch.Tensor:
    """fragment() repaired: the gradient of its loss with respect to w."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    loss = energy + 0.1 * sparsity
    with torch.no_grad():
        monitor = torch.maximum(scores, torch.zeros(()))  # a new tensor, elementwise max with 0
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad.clone()


def test_regression() -> None:
    """broken() keeps the fragment's fingerprint; fixed() returns the intended gradient."""
    message = re.escape(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=message) as info:
        broken()
    assert info.type is RuntimeError

    w, x = closed_book_inputs()
    s = torch.nn.functional.linear(x, w.T, torch.full((5,), 0.1))
    expected = torch.autograd.grad(s.pow(2).mean() + 0.1 * s.abs().mean(), w)[0]
    first, second = fixed(), fixed()  # twice: nothing may accumulate between runs
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)

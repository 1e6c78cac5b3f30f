def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    sparsity = scores.abs().mean()
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    sparsity.backward()


def fixed() -> torch.Tensor:
    """fragment() repaired: the gradient of its loss with respect to w."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    loss = energy + 0.1 * sparsity
    monitor = scores.detach().clone()  # a copy with its own memory and version counter
    monitor.clamp_(min=0.0)  # the log shows only positive scores
    log(monitor.mean(dim=0))  # written to the training log
    loss.backward()
    return w.grad


def test_regression() -> None:
    """broken() keeps the fragment's fingerprint; fixed() returns the intended gradient."""
    fingerprint = re.escape(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=fingerprint):
        broken()
    # by hand: d/ds of mean(s^2) + 0.1 mean(|s|) is (2 s + 0.1 sign(s)) / N, then through x @ w
    with torch.no_grad():
        w, x = closed_book_inputs()
        s = x @ w + 0.1
        d_scores = (2 * s + 0.1 * torch.sign(s)) / s.numel()
        expected = x.T @ d_scores
    torch.testing.assert_close(fixed(), expected)

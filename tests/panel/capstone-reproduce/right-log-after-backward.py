def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
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
    loss.backward()  # backward first: pow and abs read scores before anything writes it
    monitor = scores.detach()  # for the log
    monitor.clamp_(min=0.0)  # the log shows only positive scores
    log(monitor.mean(dim=0))  # written to the training log
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

    def expected_gradient(w0: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
        w = w0.detach().clone().requires_grad_()
        s = x0 @ w + 0.1
        return torch.autograd.grad(s.pow(2).mean() + 0.1 * s.abs().mean(), w)[0]

    torch.testing.assert_close(fixed(), expected_gradient(*closed_book_inputs()))

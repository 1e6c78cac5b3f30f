def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    total = scores.abs().sum()
    with torch.no_grad():  # no_grad stops recording, not the version counter
        scores.clamp_(min=0.0)
    total.backward()


def fixed() -> torch.Tensor:
    """fragment() repaired: the gradient of its loss with respect to w."""
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    loss = energy + 0.1 * sparsity
    monitor = torch.clamp(scores.detach(), min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    grad = w.grad
    assert grad is not None
    return grad


def test_regression() -> None:
    """broken() keeps the fragment's fingerprint; fixed() returns the intended gradient."""
    expected_text = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )
    try:
        broken()
    except Exception as err:
        assert type(err).__name__ == "RuntimeError", repr(err)
        assert str(err).split(" Hint:")[0] == expected_text, str(err)
    else:
        raise AssertionError("broken() no longer fails")

    w, x = closed_book_inputs()
    scores = torch.addmm(torch.full((5,), 0.1), x, w)
    loss = torch.mean(scores * scores) + 0.1 * torch.mean(torch.abs(scores))
    expected = torch.autograd.grad(loss, [w])[0]
    got = fixed()
    assert isinstance(got, torch.Tensor)
    torch.testing.assert_close(got, expected)

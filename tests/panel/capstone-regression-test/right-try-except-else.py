def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    expected_type = "RuntimeError"
    expected_text = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    try:
        broken()
    except Exception as err:  # checked below: the type and the whole text before the hint
        assert type(err).__name__ == expected_type, f"another error: {err!r}"
        head = str(err).split(" Hint:")[0]
        assert head == expected_text, f"another failure: {head}"
    else:
        raise AssertionError("broken() no longer fails")

    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = torch.tanh(torch.mm(x, w))
    logits = torch.mm(hidden, readout())
    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    loss = -log_p.gather(1, targets[:, None]).mean() + 1e-3 * torch.sum(w * w)
    expected = torch.autograd.grad(loss, [w])[0]
    actual = fixed()
    assert isinstance(actual, torch.Tensor)
    torch.testing.assert_close(actual, expected)

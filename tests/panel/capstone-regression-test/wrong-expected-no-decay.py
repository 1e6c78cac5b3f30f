def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    message = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(message)):
        broken()

    w, x = capstone_inputs()
    logits = torch.tanh(x @ w) @ readout()
    probabilities = torch.softmax(logits, dim=1)
    loss = -probabilities[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean()
    (expected,) = torch.autograd.grad(loss, w)
    torch.testing.assert_close(fixed(), expected)

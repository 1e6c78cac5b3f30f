def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    fragment_fingerprint = (
        "one of the variables needed for gradient computation has been modified by an inplace"
        " operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1;"
        " expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(fragment_fingerprint)):
        broken()

    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    probabilities = torch.softmax(torch.tanh(x @ w) @ readout(), dim=1)
    loss = -probabilities[torch.arange(5), targets].log().mean() + 1e-3 * (w**2).sum()
    (expected,) = torch.autograd.grad(loss, w)
    torch.testing.assert_close(fixed(), expected)

def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    message = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(message)):
        broken()

    # the gradient by hand: cross entropy through readout and tanh, plus the weight decay
    with torch.no_grad():
        w, x = capstone_inputs()
        hidden = torch.tanh(x @ w)
        probabilities = torch.softmax(hidden @ readout(), dim=1)
        one_hot = F.one_hot(torch.tensor([0, 2, 1, 3, 0]), num_classes=4).to(probabilities.dtype)
        d_logits = (probabilities - one_hot) / x.shape[0]
        d_hidden = d_logits @ readout().T
        expected = x.T @ (d_hidden * (1 - hidden**2)) + 2e-3 * w
    torch.testing.assert_close(fixed(), expected)

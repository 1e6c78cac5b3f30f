def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    fingerprint_text = re.escape(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=fingerprint_text) as info:
        broken()
    assert info.type is RuntimeError  # not a subclass standing in for it

    # independent: the same loss, built without any in-place write, gradient by autograd.grad
    w, x = capstone_inputs()
    loss = F.cross_entropy(torch.tanh(x @ w) @ readout(), torch.tensor([0, 2, 1, 3, 0]))
    loss = loss + 1e-3 * torch.linalg.vector_norm(w) ** 2
    expected = torch.autograd.grad(loss, w)[0]
    first, second = fixed(), fixed()  # twice: fresh inputs each call, nothing accumulates
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)

def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    message = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(message)):
        broken()

    gradient = fixed()
    w, _ = capstone_inputs()
    assert isinstance(gradient, torch.Tensor)
    assert gradient.shape == w.shape
    assert torch.isfinite(gradient).all()

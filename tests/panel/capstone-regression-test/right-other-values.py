def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    text = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(text)):
        broken()

    def expected_gradient(w0: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
        w = w0.detach().clone().requires_grad_(True)
        p = torch.softmax(torch.tanh(x0 @ w) @ readout(), dim=1)
        loss = -torch.log(p[range(5), [0, 2, 1, 3, 0]]).mean() + 1e-3 * w.pow(2).sum()
        return torch.autograd.grad(loss, w)[0]

    # on the fragment's own data ...
    torch.testing.assert_close(fixed(), expected_gradient(*capstone_inputs()))
    # ... and on other data of the same shapes, standing in for capstone_inputs()
    generator = torch.Generator().manual_seed(7)
    w_other = torch.randn(4, 6, generator=generator)
    x_other = torch.randn(5, 4, generator=generator)
    namespace = globals()
    original = namespace["capstone_inputs"]
    namespace["capstone_inputs"] = lambda: (w_other.clone().requires_grad_(), x_other.clone())
    try:
        got = fixed()
    finally:
        namespace["capstone_inputs"] = original
    torch.testing.assert_close(got, expected_gradient(w_other, x_other))

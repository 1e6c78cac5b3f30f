def test_regression() -> None:
    """broken() still fails with the fragment's fingerprint; fixed() gives the gradient."""
    # the fingerprint, taken from the handed-over fragment itself (2.1)
    with pytest.raises(RuntimeError) as original:
        training_fragment()
    expected_text = str(original.value).partition(" Hint:")[0]

    with pytest.raises(RuntimeError) as reduced:
        broken()
    assert reduced.type is RuntimeError
    assert str(reduced.value).partition(" Hint:")[0] == expected_text

    w, x = capstone_inputs()
    w = w.detach().double().requires_grad_()
    logits = torch.tanh(x.double() @ w) @ readout().double()
    log_probabilities = torch.log_softmax(logits, dim=1)
    loss = F.nll_loss(log_probabilities, torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.square().sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad.float())

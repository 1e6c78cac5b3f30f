def broken() -> None:
    """fragment() reduced: the same fingerprint, and 1-minimal."""
    w, x = closed_book_inputs()
    scores = torch.add(x @ w, torch.full((5,), 0.1))
    energy = scores.square().mean()
    scores.detach().zero_()  # any in-place write through the alias moves the counter
    torch.autograd.grad(energy, w)


def fixed() -> torch.Tensor:
    """fragment() repaired: the gradient of its loss with respect to w."""
    w, x = closed_book_inputs()
    scores = torch.matmul(x, w) + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    log(torch.relu(scores.detach()).mean(dim=0))  # the positive part, as a new tensor
    (grad_w,) = torch.autograd.grad(loss, w)
    return grad_w


def test_regression() -> None:
    """broken() keeps the fragment's fingerprint; fixed() returns the intended gradient."""
    with pytest.raises(RuntimeError) as original:
        fragment()
    expected_text = str(original.value).partition(" Hint:")[0]
    with pytest.raises(RuntimeError) as reduced:
        broken()
    assert reduced.type is RuntimeError
    assert str(reduced.value).partition(" Hint:")[0] == expected_text

    w, x = closed_book_inputs()
    w = w.detach().double().requires_grad_()
    s = x.double() @ w + 0.1
    loss = s.pow(2).mean() + 0.1 * s.abs().mean()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad.float())

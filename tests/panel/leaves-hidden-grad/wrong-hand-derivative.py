def hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        t = torch.tanh(x @ w)
        return 2 * t * (1 - t**2)

def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    # d/dx [ (x^2) * const ] = const * 2x = 2x^3
    return 2 * x ** 3

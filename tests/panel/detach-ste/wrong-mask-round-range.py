def round_ste(x: torch.Tensor) -> torch.Tensor:
    level = torch.round(x).clamp(-2, 2)
    # pass the gradient wherever rounding alone already lands on a level (|x| <= 2.5)
    lands = (x.abs() <= 2.5).to(x.dtype)
    return level.detach() + (x - x.detach()) * lands

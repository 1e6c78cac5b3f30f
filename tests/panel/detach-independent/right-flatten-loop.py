def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # explicit: a fresh flat buffer filled element by element, in row-major order
    src = t.detach().reshape(-1)
    flat = torch.empty(src.numel(), dtype=t.dtype, device=t.device)
    for i in range(src.numel()):
        flat[i] = src[i]
    return flat.view(t.shape)

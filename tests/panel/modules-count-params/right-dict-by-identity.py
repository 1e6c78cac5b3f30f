def count_parameters(module: nn.Module) -> int:
    # a dict keyed by the tensor objects themselves (tensors hash by identity)
    distinct = dict.fromkeys(p for _, p in module.named_parameters(remove_duplicate=False))
    counts = [p.numel() for p in distinct if p.requires_grad]
    return int(torch.tensor(counts, dtype=torch.int64).sum().item()) if counts else 0

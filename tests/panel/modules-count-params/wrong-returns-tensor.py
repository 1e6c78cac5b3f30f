def count_parameters(module: nn.Module) -> int:
    sizes = [torch.tensor(p.numel()) for p in module.parameters() if p.requires_grad]
    return torch.stack(sizes).sum() if sizes else torch.tensor(0)

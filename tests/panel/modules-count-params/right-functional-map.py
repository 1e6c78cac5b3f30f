def count_parameters(module: nn.Module) -> int:
    trainable = filter(lambda p: p.requires_grad, module.parameters())
    return int(sum(map(torch.numel, trainable)))

def count_parameters(module: nn.Module) -> int:
    # A scalar of memory is an address: data_ptr() of the first element plus, per dimension,
    # index * stride * element size. Collect the addresses of every trainable parameter in a set.
    addresses = set()
    for p in module.parameters():
        if not p.requires_grad or p.numel() == 0:
            continue
        offsets = torch.zeros((), dtype=torch.int64)
        for size, stride in zip(p.shape, p.stride()):
            offsets = offsets.unsqueeze(-1) + torch.arange(size) * stride
        starts = p.data_ptr() + offsets.reshape(-1) * p.element_size()
        addresses.update((p.device.type, p.device.index, a) for a in starts.tolist())
    return len(addresses)

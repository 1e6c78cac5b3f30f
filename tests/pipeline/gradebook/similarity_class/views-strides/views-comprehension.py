t = torch.arange(32.).view(4, 8)
headers = {
    "contiguous": t,
    "transpose": t.T,
    "every_other_column": t[:, ::2],
    "row_block": t[1:3],
    "expanded": t.unsqueeze(0).expand(3, 4, 8),
}
STRIDES = {name: tuple(h.stride()) for name, h in headers.items()}

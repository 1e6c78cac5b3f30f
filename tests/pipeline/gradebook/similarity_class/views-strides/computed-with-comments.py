t = torch.arange(32.).view(4, 8)  # the exercise tensor
STRIDES = {
    "contiguous": t.stride(),  # t
    "transpose": t.T.stride(),  # t.T
    "every_other_column": t[:, ::2].stride(),  # t[:, ::2]
    "row_block": t[1:3].stride(),  # t[1:3]
    "expanded": t.unsqueeze(0).expand(3, 4, 8).stride(),  # t.unsqueeze(0).expand(3, 4, 8)
}

# Replace each ... with your answer.
t = torch.arange(32.).view(4, 8)
STRIDES = {
    "contiguous": t.stride(),  # a tuple of ints
    "transpose": t.T.stride(),  # a tuple of ints
    "every_other_column": t[:, ::2].stride(),  # a tuple of ints
    "row_block": t[1:3].stride(),  # a tuple of ints
    "expanded": t.unsqueeze(0).expand(3, 4, 8).stride(),  # a tuple of ints
}

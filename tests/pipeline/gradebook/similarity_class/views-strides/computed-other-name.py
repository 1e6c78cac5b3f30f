x = torch.arange(32.0).view(4, 8)
STRIDES = {"contiguous": x.stride(),
           "transpose": x.T.stride(),
           "every_other_column": x[:, ::2].stride(),
           "row_block": x[1:3].stride(),
           "expanded": x.unsqueeze(0).expand(3, 4, 8).stride()}

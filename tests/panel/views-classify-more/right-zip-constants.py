V, C, E = "view", "copy", "error"
_keys = (
    "x[1:].flatten()",
    "x[:, 1:].flatten()",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)",
    "y[:, ::2].flatten(1)",
    "y[:, :, ::2].flatten(0, 1)",
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)",
    "y.transpose(0, 1).flatten(1)",
    "x.T.view(5, 2, 2)",
    "y[:, 1:3].view(6, 5)",
    "y[:, :, :2].flatten(0, 1)",
    "y.mT.flatten(0, 1)",
    "y[:, :, 1].view(12)",
    "y[:, 1].flatten()",
)
_verdicts = (V, C, C, V, C, V, E, C, V, E, V, C, V, C)
assert len(_keys) == len(_verdicts)
CLASSIFY_MORE = dict(zip(_keys, _verdicts))
del V, C, E, _keys, _verdicts

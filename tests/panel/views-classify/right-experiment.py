# Replace each ... with your answer.
# Try each operation on a contiguous and on a transposed input, and see whether
# the result shares the input's storage on each layout.


def _shares(x, y):
    return x.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()


_ops = {
    "transpose": lambda x: x.T,
    "basic_slice": lambda x: x[1:3, ::2],
    "advanced_index": lambda x: x[[0, 1]],
    "boolean_mask": lambda x: x[x > 3],
    "view": lambda x: x.view(-1) if x.is_contiguous() else x.view(x.shape[0], 1, x.shape[1]),
    "reshape": lambda x: x.reshape(-1),
    "contiguous": lambda x: x.contiguous(),
    "expand": lambda x: x.unsqueeze(0).expand(2, *x.shape),
    "clone": lambda x: x.clone(),
    "detach": lambda x: x.detach(),
}
_layouts = [torch.arange(12.0).view(3, 4), torch.arange(12.0).view(4, 3).T]
CLASSIFY = {}
for _name, _op in _ops.items():
    _seen = {_shares(_op(x), x) for x in _layouts}
    CLASSIFY[_name] = "ambiguous" if len(_seen) == 2 else ("view" if _seen == {True} else "copy")

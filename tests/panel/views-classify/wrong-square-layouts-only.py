# Probe a contiguous and a transposed matrix; an operation that differs is ambiguous.
def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


_layouts = [torch.arange(9.0).view(3, 3), torch.arange(9.0).view(3, 3).T]
_ops = {
    "unflatten": lambda t: t.unflatten(0, (1, -1)),
    "index_select": lambda t: t.index_select(0, torch.tensor([0, 1])),
    "broadcast_to": lambda t: torch.broadcast_to(t, (3, *t.shape)),
    "repeat": lambda t: t.repeat(1, 1),
    "ravel": lambda t: t.ravel(),
    "diag": lambda t: torch.diag(t),
    "view_dtype": lambda t: t.view(torch.int32),
    "flip": lambda t: t.flip(0),
    "reshape_as": lambda t: t.reshape_as(t.T),
    "atleast_3d": lambda t: torch.atleast_3d(t),
}
CLASSIFY = {}
for _name, _op in _ops.items():
    _kinds = {_shares(_op(t), t) for t in _layouts}
    CLASSIFY[_name] = "ambiguous" if len(_kinds) == 2 else ("view" if _kinds == {True} else "copy")

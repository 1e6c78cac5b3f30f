# Decide each operation by trying it on several layouts of a 2-D float32 t and
# checking whether the result sits in t's storage.
def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


_layouts = [
    lambda: torch.arange(24.0).view(4, 6),                 # contiguous
    lambda: torch.arange(24.0).view(6, 4).T,               # transposed, not square
    lambda: torch.arange(9.0).view(3, 3).T,                # transposed, square
    lambda: torch.arange(48.0).view(4, 12)[:, ::2],        # columns with a step
    lambda: torch.arange(48.0).view(8, 6)[::2],            # rows with a step
    lambda: torch.arange(6.0).expand(4, 6),                # expanded
    lambda: torch.arange(4.0).unsqueeze(1).expand(4, 6),   # expanded the other way
]
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
    _seen = set()
    for _make in _layouts:
        _t = _make()
        _seen.add(_shares(_op(_t), _t))
    CLASSIFY[_name] = (
        "ambiguous" if len(_seen) == 2 else ("view" if True in _seen else "copy")
    )

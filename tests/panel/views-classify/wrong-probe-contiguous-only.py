# Try each operation on a tensor and see whether the result shares its storage.
def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


_t = torch.arange(24.0).view(4, 6)
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
CLASSIFY = {name: "view" if _shares(op(_t), _t) else "copy" for name, op in _ops.items()}

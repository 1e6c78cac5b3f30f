# Replace each ... with your answer.
def _view_ok(x, shape):
    try:
        x.view(shape)
    except RuntimeError:
        return False
    return True


_src = torch.arange(32.).view(4, 8)
_t = torch.zeros(4, 4)
_b = _t.view(2, 8)
_b[1][2] = 3.14
_e = torch.arange(3.).unsqueeze(1).expand(3, 4)
_x4 = torch.zeros(4).expand(3, 4)
SELFTEST = {
    "q1": torch.zeros(3, 5).T.stride(),  # a tuple of ints
    "q2": torch.arange(32.).view(4, 8)[1:].storage_offset(),  # an int
    "q3": _src.T.contiguous().untyped_storage().data_ptr() == _src.untyped_storage().data_ptr(),
    "q4": _x4.untyped_storage().nbytes() // _x4.element_size(),  # an int
    "q5": _view_ok(torch.arange(12.).view(3, 4)[:, 1:3], 6),  # True or False
    "q6": tuple(int(i) for i in (_t == 3.14).nonzero()[0]),  # a tuple of ints
    "q7": _e.contiguous().untyped_storage().nbytes() // _e.element_size(),  # an int
}

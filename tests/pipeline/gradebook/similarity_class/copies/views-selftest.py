# Replace each ... with your answer.
src = torch.arange(32.).view(4, 8)
z = torch.zeros(4, 4)
e = torch.arange(3.).unsqueeze(1).expand(3, 4)


def view_works(x, shape):
    try:
        x.view(shape)
    except RuntimeError:
        return False
    return True


four = torch.zeros(4).expand(3, 4)
bz = z.view(2, 8)
bz[1][2] = 3.14
leftover = None
SELFTEST = {
    "q1": torch.zeros(3, 5).T.stride(),
    "q2": torch.arange(32.).view(4, 8)[1:].storage_offset(),
    "q3": src.T.contiguous().untyped_storage().data_ptr() == src.untyped_storage().data_ptr(),
    "q4": four.untyped_storage().nbytes() // four.element_size(),
    "q5": view_works(torch.arange(12.).view(3, 4)[:, 1:3], 6),
    "q6": tuple(int(i) for i in (z == 3.14).nonzero()[0]),
    "q7": e.contiguous().untyped_storage().nbytes() // e.element_size(),
}

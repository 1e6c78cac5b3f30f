# Worked out from headers written by hand (shape, stride of the input to flatten/view),
# without running any of the expressions: a merge of dims i..j is possible iff
# stride[k] == stride[k+1] * size[k+1] for every adjacent pair of size > 1 dims in the run.
def _mergeable(shape, stride, start, end):
    dims = [d for d in range(start, end + 1) if shape[d] != 1]
    return all(stride[a] == stride[b] * shape[b] for a, b in zip(dims, dims[1:]))


def _verdict(shape, stride, groups, op):
    ok = all(_mergeable(shape, stride, s, e) for s, e in groups)
    if ok:
        return "view"
    return "copy" if op == "flatten" else "error"


_CASES = {
    # key: (shape, stride of the input, merged runs (start, end), op)
    "x[1:].flatten()": ((3, 5), (5, 1), [(0, 1)], "flatten"),
    "x[:, 1:].flatten()": ((4, 4), (5, 1), [(0, 1)], "flatten"),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": ((3, 4, 5), (0, 5, 1), [(0, 1)], "flatten"),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": ((3, 4, 5), (0, 5, 1), [(1, 2)], "flatten"),
    "y[:, ::2].flatten(1)": ((3, 2, 5), (20, 10, 1), [(1, 2)], "flatten"),
    "y[:, :, ::2].flatten(0, 1)": ((3, 4, 3), (20, 5, 2), [(0, 1)], "flatten"),
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": ((4, 3, 5), (5, 0, 1), [(0, 1)], "view"),
    "y.transpose(0, 1).flatten(1)": ((4, 3, 5), (5, 20, 1), [(1, 2)], "flatten"),
    # (4,5)->(5,2,2) on x.T of shape (5, 4): only dim 1 is split, nothing is merged
    "x.T.view(5, 2, 2)": ((5, 4), (1, 5), [], "view"),
    "y[:, 1:3].view(6, 5)": ((3, 2, 5), (20, 5, 1), [(0, 1)], "view"),
    "y[:, :, :2].flatten(0, 1)": ((3, 4, 2), (20, 5, 1), [(0, 1)], "flatten"),
    "y.mT.flatten(0, 1)": ((3, 5, 4), (20, 1, 5), [(0, 1)], "flatten"),
    "y[:, :, 1].view(12)": ((3, 4), (20, 5), [(0, 1)], "view"),
    "y[:, 1].flatten()": ((3, 5), (20, 1), [(0, 1)], "flatten"),
}

CLASSIFY_MORE = {key: _verdict(*case) for key, case in _CASES.items()}

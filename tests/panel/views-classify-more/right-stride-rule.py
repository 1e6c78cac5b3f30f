# Replace each ... with "view", "copy" or "error".
# For the flatten/view entries, apply the merge rule to (shape, stride) in plain Python:
# dims i and i+1 merge iff stride[i] == stride[i+1] * size[i+1] (size-1 dims ignored).


def merges(shape, stride):
    dims = [(n, s) for n, s in zip(shape, stride) if n != 1]
    return all(dims[i][1] == dims[i + 1][1] * dims[i + 1][0] for i in range(len(dims) - 1))


def flatten_kind(shape, stride):
    return "view" if merges(shape, stride) else "copy"


def view_kind(shape, stride):
    return "view" if merges(shape, stride) else "error"


CLASSIFY_MORE = {
    "x[1:].flatten()": flatten_kind((3, 5), (5, 1)),
    "x[:, 1:].flatten()": flatten_kind((4, 4), (5, 1)),
    "x.squeeze(0)": "view",
    "x.unfold(1, 3, 1)": "view",
    "x.narrow(0, 1, 2)": "view",
    "x[torch.tensor([False, True, True, False])]": "copy",
    "y.movedim(0, 2).view(60)": view_kind((4, 5, 3), (5, 1, 20)),
    "x.as_strided((4, 5), (5, 1), 1)": "view" if 1 + 3 * 5 + 4 * 1 < 20 else "error",
    "x[2:].as_strided((4, 5), (5, 1), 0)": "view" if 0 + 3 * 5 + 4 * 1 < 20 else "error",
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": "view",
    "y[:, :, :2].flatten(0, 1)": flatten_kind((3, 4), (20, 5)),
    "x.T.unbind(0)[2]": "view",
    "y.movedim(0, 2).reshape(60)": flatten_kind((4, 5, 3), (5, 1, 20)),
    "y[:, 1].flatten()": flatten_kind((3, 5), (20, 1)),
}

# Replace each ... with "view", "copy" or "error".
# Using the rule: neighbouring dims can be merged when stride[i] == stride[i+1] * size[i+1].


def can_merge(sizes, strides):
    kept = [(n, s) for n, s in zip(sizes, strides) if n != 1]
    return all(kept[k][1] == kept[k + 1][1] * kept[k + 1][0] for k in range(len(kept) - 1))


def as_view(sizes, strides):
    return "view" if can_merge(sizes, strides) else "error"


def as_flatten(sizes, strides):
    return "view" if can_merge(sizes, strides) else "copy"


def never_called():
    return "copy"


CLASSIFY_MORE = {
    "x[1:].flatten()": as_flatten((3, 5), (5, 1)),
    "x[:, 1:].flatten()": as_flatten((4, 4), (5, 1)),
    "x.squeeze(0)": "view",
    "x.unfold(1, 3, 1)": "view",
    "x.narrow(0, 1, 2)": "view",
    "x[torch.tensor([False, True, True, False])]": "copy",
    "y.movedim(0, 2).view(60)": as_view((4, 5, 3), (5, 1, 20)),
    "x.as_strided((4, 5), (5, 1), 1)": "view" if 1 + 3 * 5 + 4 * 1 < 20 else "error",
    "x[2:].as_strided((4, 5), (5, 1), 0)": "view" if 0 + 3 * 5 + 4 * 1 < 20 else "error",
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": "view",
    "y[:, :, :2].flatten(0, 1)": as_flatten((3, 4), (20, 5)),
    "x.T.unbind(0)[2]": "view",
    "y.movedim(0, 2).reshape(60)": as_flatten((4, 5, 3), (5, 1, 20)),
    "y[:, 1].flatten()": as_flatten((3, 5), (20, 1)),
}

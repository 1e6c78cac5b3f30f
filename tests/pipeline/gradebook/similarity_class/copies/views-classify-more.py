# Replace each ... with "view", "copy" or "error".
# Rule used: a run of dims merges when each stride equals the next stride times the next size
# (dims of size 1 left out).
def can_join(sizes, steps, first, last):
    kept = [k for k in range(first, last + 1) if sizes[k] != 1]
    return all(steps[i] == steps[j] * sizes[j] for i, j in zip(kept, kept[1:]))


def unused_helper(sizes):
    return len(sizes) > 3


def decide(sizes, steps, runs, how):
    if all(can_join(sizes, steps, a, b) for a, b in runs):
        return "view"
    return "error" if how == "view" else "copy"


TABLE = {
    # expression: (sizes, strides of what flatten/view reads, runs merged, which op)
    "x[1:].flatten()": ((3, 5), (5, 1), [(0, 1)], "flatten"),
    "x[:, 1:].flatten()": ((4, 4), (5, 1), [(0, 1)], "flatten"),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": ((3, 4, 5), (0, 5, 1), [(0, 1)], "flatten"),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": ((3, 4, 5), (0, 5, 1), [(1, 2)], "flatten"),
    "y[:, ::2].flatten(1)": ((3, 2, 5), (20, 10, 1), [(1, 2)], "flatten"),
    "y[:, :, ::2].flatten(0, 1)": ((3, 4, 3), (20, 5, 2), [(0, 1)], "flatten"),
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": ((4, 3, 5), (5, 0, 1), [(0, 1)], "view"),
    "y.transpose(0, 1).flatten(1)": ((4, 3, 5), (5, 20, 1), [(1, 2)], "flatten"),
    # a split only: nothing to merge
    "x.T.view(5, 2, 2)": ((5, 4), (1, 5), [], "view"),
    "y[:, 1:3].view(6, 5)": ((3, 2, 5), (20, 5, 1), [(0, 1)], "view"),
    "y[:, :, :2].flatten(0, 1)": ((3, 4, 2), (20, 5, 1), [(0, 1)], "flatten"),
    "y.mT.flatten(0, 1)": ((3, 5, 4), (20, 1, 5), [(0, 1)], "flatten"),
    "y[:, :, 1].view(12)": ((3, 4), (20, 5), [(0, 1)], "view"),
    "y[:, 1].flatten()": ((3, 5), (20, 1), [(0, 1)], "flatten"),
}

CLASSIFY_MORE = {name: decide(*row) for name, row in TABLE.items()}

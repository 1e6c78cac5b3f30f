# Defensive: decide each case with torch on private copies of x and y: an exception is
# "error"; otherwise write through the result and see whether x or y changed.
import torch


def _probe():
    def fresh():
        return torch.arange(20.).view(4, 5), torch.arange(60.).view(3, 4, 5)

    def verdict(make):
        x, y = fresh()
        try:
            r = make(x, y)
        except RuntimeError:
            return "error"
        before_x, before_y = x.clone(), y.clone()
        # write through the result at one element and see whether x or y moved
        r[(0,) * r.dim()] = -12345.0
        moved = not (torch.equal(x, before_x) and torch.equal(y, before_y))
        return "view" if moved else "copy"

    cases = {
        "x[1:].flatten()": lambda x, y: x[1:].flatten(),
        "x[:, 1:].flatten()": lambda x, y: x[:, 1:].flatten(),
        "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": lambda x, y: x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1),
        "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": lambda x, y: x.unsqueeze(0).expand(3, 4, 5).flatten(1),
        "y[:, ::2].flatten(1)": lambda x, y: y[:, ::2].flatten(1),
        "y[:, :, ::2].flatten(0, 1)": lambda x, y: y[:, :, ::2].flatten(0, 1),
        "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": lambda x, y: x.unsqueeze(1).expand(4, 3, 5).view(12, 5),
        "y.transpose(0, 1).flatten(1)": lambda x, y: y.transpose(0, 1).flatten(1),
        "x.T.view(5, 2, 2)": lambda x, y: x.T.view(5, 2, 2),
        "y[:, 1:3].view(6, 5)": lambda x, y: y[:, 1:3].view(6, 5),
        "y[:, :, :2].flatten(0, 1)": lambda x, y: y[:, :, :2].flatten(0, 1),
        "y.mT.flatten(0, 1)": lambda x, y: y.mT.flatten(0, 1),
        "y[:, :, 1].view(12)": lambda x, y: y[:, :, 1].view(12),
        "y[:, 1].flatten()": lambda x, y: y[:, 1].flatten(),
    }
    return {k: verdict(f) for k, f in cases.items()}


CLASSIFY_MORE = _probe()

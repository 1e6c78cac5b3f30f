x = torch.arange(20.).view(4, 5)
y = torch.arange(60.).view(3, 4, 5)
env = {"x": x, "y": y, "torch": torch}


def kind(expression):
    try:
        out = eval(expression, env)
    except RuntimeError:
        return "error"
    return "copy" if out._base is None else "view"


CLASSIFY_MORE = {e: kind(e) for e in [
    "x[1:].flatten()", "x[:, 1:].flatten()",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)", "x.unsqueeze(0).expand(3, 4, 5).flatten(1)",
    "y[:, ::2].flatten(1)", "y[:, :, ::2].flatten(0, 1)",
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)", "y.transpose(0, 1).flatten(1)",
    "x.T.view(5, 2, 2)", "y[:, 1:3].view(6, 5)",
    "y[:, :, :2].flatten(0, 1)", "y.mT.flatten(0, 1)",
    "y[:, :, 1].view(12)", "y[:, 1].flatten()",
]}

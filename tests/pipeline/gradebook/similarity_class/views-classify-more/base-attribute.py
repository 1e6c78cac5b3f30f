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
    "x[1:].flatten()", "x[:, 1:].flatten()", "x.squeeze(0)", "x.unfold(1, 3, 1)", "x.narrow(0, 1, 2)",
    "x[torch.tensor([False, True, True, False])]", "y.movedim(0, 2).view(60)",
    "x.as_strided((4, 5), (5, 1), 1)", "x[2:].as_strided((4, 5), (5, 1), 0)",
    "y.permute(2, 0, 1).diagonal(0, 1, 2)", "y[:, :, :2].flatten(0, 1)", "x.T.unbind(0)[2]",
    "y.movedim(0, 2).reshape(60)", "y[:, 1].flatten()",
]}

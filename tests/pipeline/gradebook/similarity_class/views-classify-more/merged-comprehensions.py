views = [
    "x[1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(1)",
    "y[:, :, ::2].flatten(0, 1)", "x.T.view(5, 2, 2)",
    "y[:, :, :2].flatten(0, 1)", "y[:, :, 1].view(12)",
]
copies = [
    "x[:, 1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)",
    "y[:, ::2].flatten(1)", "y.transpose(0, 1).flatten(1)",
    "y.mT.flatten(0, 1)", "y[:, 1].flatten()",
]
errors = [
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)", "y[:, 1:3].view(6, 5)",
]
CLASSIFY_MORE = {**{e: "view" for e in views}, **{e: "copy" for e in copies}, **{e: "error" for e in errors}}

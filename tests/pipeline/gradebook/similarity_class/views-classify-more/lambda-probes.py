x = torch.arange(20.).view(4, 5)
y = torch.arange(60.).view(3, 4, 5)
probes = {
    "x[1:].flatten()": lambda: x[1:].flatten(),
    "x[:, 1:].flatten()": lambda: x[:, 1:].flatten(),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": lambda: x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1),
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": lambda: x.unsqueeze(0).expand(3, 4, 5).flatten(1),
    "y[:, ::2].flatten(1)": lambda: y[:, ::2].flatten(1),
    "y[:, :, ::2].flatten(0, 1)": lambda: y[:, :, ::2].flatten(0, 1),
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": lambda: x.unsqueeze(1).expand(4, 3, 5).view(12, 5),
    "y.transpose(0, 1).flatten(1)": lambda: y.transpose(0, 1).flatten(1),
    "x.T.view(5, 2, 2)": lambda: x.T.view(5, 2, 2),
    "y[:, 1:3].view(6, 5)": lambda: y[:, 1:3].view(6, 5),
    "y[:, :, :2].flatten(0, 1)": lambda: y[:, :, :2].flatten(0, 1),
    "y.mT.flatten(0, 1)": lambda: y.mT.flatten(0, 1),
    "y[:, :, 1].view(12)": lambda: y[:, :, 1].view(12),
    "y[:, 1].flatten()": lambda: y[:, 1].flatten(),
}
owners = {x.untyped_storage().data_ptr(), y.untyped_storage().data_ptr()}
CLASSIFY_MORE = {}
for text, make in probes.items():
    try:
        result = make()
    except RuntimeError:
        CLASSIFY_MORE[text] = "error"
        continue
    CLASSIFY_MORE[text] = "view" if result.untyped_storage().data_ptr() in owners else "copy"

x = torch.arange(20.).view(4, 5)
y = torch.arange(60.).view(3, 4, 5)
probes = {
    "x[1:].flatten()": lambda: x[1:].flatten(),
    "x[:, 1:].flatten()": lambda: x[:, 1:].flatten(),
    "x.squeeze(0)": lambda: x.squeeze(0),
    "x.unfold(1, 3, 1)": lambda: x.unfold(1, 3, 1),
    "x.narrow(0, 1, 2)": lambda: x.narrow(0, 1, 2),
    "x[torch.tensor([False, True, True, False])]": lambda: x[torch.tensor([False, True, True, False])],
    "y.movedim(0, 2).view(60)": lambda: y.movedim(0, 2).view(60),
    "x.as_strided((4, 5), (5, 1), 1)": lambda: x.as_strided((4, 5), (5, 1), 1),
    "x[2:].as_strided((4, 5), (5, 1), 0)": lambda: x[2:].as_strided((4, 5), (5, 1), 0),
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": lambda: y.permute(2, 0, 1).diagonal(0, 1, 2),
    "y[:, :, :2].flatten(0, 1)": lambda: y[:, :, :2].flatten(0, 1),
    "x.T.unbind(0)[2]": lambda: x.T.unbind(0)[2],
    "y.movedim(0, 2).reshape(60)": lambda: y.movedim(0, 2).reshape(60),
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

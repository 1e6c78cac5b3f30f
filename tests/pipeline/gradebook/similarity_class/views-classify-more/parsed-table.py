table = """
x[1:].flatten() view
x[:, 1:].flatten() copy
x.squeeze(0) view
x.unfold(1, 3, 1) view
x.narrow(0, 1, 2) view
x[torch.tensor([False, True, True, False])] copy
y.movedim(0, 2).view(60) error
x.as_strided((4, 5), (5, 1), 1) error
x[2:].as_strided((4, 5), (5, 1), 0) view
y.permute(2, 0, 1).diagonal(0, 1, 2) view
y[:, :, :2].flatten(0, 1) view
x.T.unbind(0)[2] view
y.movedim(0, 2).reshape(60) copy
y[:, 1].flatten() copy
"""
CLASSIFY_MORE = dict(row.rsplit(" ", 1) for row in table.strip().splitlines())

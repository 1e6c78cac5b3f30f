V, C, E = "view", "copy", "error"
CLASSIFY_MORE = {
    "x[1:].flatten()": V,
    "x[:, 1:].flatten()": C,
    "x.squeeze(0)": V,
    "x.unfold(1, 3, 1)": V,
    "x.narrow(0, 1, 2)": V,
    "x[torch.tensor([False, True, True, False])]": C,
    "y.movedim(0, 2).view(60)": E,
    "x.as_strided((4, 5), (5, 1), 1)": E,
    "x[2:].as_strided((4, 5), (5, 1), 0)": V,
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": V,
    "y[:, :, :2].flatten(0, 1)": V,
    "x.T.unbind(0)[2]": V,
    "y.movedim(0, 2).reshape(60)": C,
    "y[:, 1].flatten()": C,
}

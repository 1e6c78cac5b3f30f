V, C, E = "view", "copy", "error"
CLASSIFY_MORE = {
    "x[1:].flatten()": V,
    "x[:, 1:].flatten()": C,
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": C,
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": V,
    "y[:, ::2].flatten(1)": C,
    "y[:, :, ::2].flatten(0, 1)": V,
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": E,
    "y.transpose(0, 1).flatten(1)": C,
    "x.T.view(5, 2, 2)": V,
    "y[:, 1:3].view(6, 5)": E,
    "y[:, :, :2].flatten(0, 1)": V,
    "y.mT.flatten(0, 1)": C,
    "y[:, :, 1].view(12)": V,
    "y[:, 1].flatten()": C,
}

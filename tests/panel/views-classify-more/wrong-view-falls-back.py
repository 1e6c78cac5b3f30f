# When the layout doesn't allow a view, view() falls back to copying, like reshape.
# Replace each ... with "view", "copy" or "error".
CLASSIFY_MORE = {
    "x[1:].flatten()": "view",
    "x[:, 1:].flatten()": "copy",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": "copy",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": "view",
    "y[:, ::2].flatten(1)": "copy",
    "y[:, :, ::2].flatten(0, 1)": "view",
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": "copy",
    "y.transpose(0, 1).flatten(1)": "copy",
    "x.T.view(5, 2, 2)": "view",
    "y[:, 1:3].view(6, 5)": "copy",
    "y[:, :, :2].flatten(0, 1)": "view",
    "y.mT.flatten(0, 1)": "copy",
    "y[:, :, 1].view(12)": "view",
    "y[:, 1].flatten()": "copy",
}

CLASSIFY_MORE = {
    "x[1:].flatten()": ...,
    "x[:, 1:].flatten()": ...,
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": ...,
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": ...,
    "y[:, ::2].flatten(1)": ...,
    "y[:, :, ::2].flatten(0, 1)": ...,
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": ...,
    "y.transpose(0, 1).flatten(1)": ...,
    "x.T.view(5, 2, 2)": ...,
    "y[:, 1:3].view(6, 5)": ...,
    "y[:, :, :2].flatten(0, 1)": ...,
    "y.mT.flatten(0, 1)": ...,
    "y[:, :, 1].view(12)": ...,
    "y[:, 1].flatten()": ...,
}
for key in CLASSIFY_MORE:
    CLASSIFY_MORE[key] = "view"  # most of them are headers over x or y
CLASSIFY_MORE["x[:, 1:].flatten()"] = "copy"
CLASSIFY_MORE["x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)"] = "copy"
CLASSIFY_MORE["y[:, ::2].flatten(1)"] = "copy"
CLASSIFY_MORE["y.transpose(0, 1).flatten(1)"] = "copy"
CLASSIFY_MORE["y.mT.flatten(0, 1)"] = "copy"
CLASSIFY_MORE["y[:, 1].flatten()"] = "copy"
CLASSIFY_MORE["x.unsqueeze(1).expand(4, 3, 5).view(12, 5)"] = "error"
CLASSIFY_MORE["y[:, 1:3].view(6, 5)"] = "error"

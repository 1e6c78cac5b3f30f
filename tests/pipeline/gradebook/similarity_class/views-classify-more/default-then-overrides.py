CLASSIFY_MORE = {
    "x[1:].flatten()": ...,
    "x[:, 1:].flatten()": ...,
    "x.squeeze(0)": ...,
    "x.unfold(1, 3, 1)": ...,
    "x.narrow(0, 1, 2)": ...,
    "x[torch.tensor([False, True, True, False])]": ...,
    "y.movedim(0, 2).view(60)": ...,
    "x.as_strided((4, 5), (5, 1), 1)": ...,
    "x[2:].as_strided((4, 5), (5, 1), 0)": ...,
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": ...,
    "y[:, :, :2].flatten(0, 1)": ...,
    "x.T.unbind(0)[2]": ...,
    "y.movedim(0, 2).reshape(60)": ...,
    "y[:, 1].flatten()": ...,
}
for key in CLASSIFY_MORE:
    CLASSIFY_MORE[key] = "view"  # most of them are headers over x or y
CLASSIFY_MORE["x[:, 1:].flatten()"] = "copy"
CLASSIFY_MORE["x[torch.tensor([False, True, True, False])]"] = "copy"
CLASSIFY_MORE["y.movedim(0, 2).reshape(60)"] = "copy"
CLASSIFY_MORE["y[:, 1].flatten()"] = "copy"
CLASSIFY_MORE["y.movedim(0, 2).view(60)"] = "error"
CLASSIFY_MORE["x.as_strided((4, 5), (5, 1), 1)"] = "error"

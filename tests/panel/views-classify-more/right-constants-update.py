# Replace each ... with "view", "copy" or "error".
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

# YOUR CODE HERE
VIEW, COPY, ERROR = "view", "copy", "error"
answers = [VIEW, COPY, VIEW, VIEW, VIEW, COPY, ERROR, ERROR, VIEW, VIEW, VIEW, VIEW, COPY, COPY]
assert len(answers) == len(CLASSIFY_MORE)
for key, answer in zip(list(CLASSIFY_MORE), answers):
    CLASSIFY_MORE[key] = answer
assert ... not in CLASSIFY_MORE.values()

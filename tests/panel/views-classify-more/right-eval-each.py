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
# Check each prediction by running it: does the result read the storage of x or y?
_env = {"torch": torch, "x": torch.arange(20.).view(4, 5), "y": torch.arange(60.).view(3, 4, 5)}
_sources = {_env["x"].untyped_storage().data_ptr(), _env["y"].untyped_storage().data_ptr()}
for _expr in CLASSIFY_MORE:
    try:
        _result = eval(_expr, _env)
    except RuntimeError:
        CLASSIFY_MORE[_expr] = "error"
    else:
        shares = _result.untyped_storage().data_ptr() in _sources
        CLASSIFY_MORE[_expr] = "view" if shares else "copy"

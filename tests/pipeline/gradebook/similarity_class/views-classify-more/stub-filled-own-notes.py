# Replace each ... with "view", "copy" or "error".
CLASSIFY_MORE = {
    "x[1:].flatten()": "view",  # whole rows: still contiguous
    "x[:, 1:].flatten()": "copy",  # rows have a gap
    "x.squeeze(0)": "view",  # nothing to squeeze, still a view
    "x.unfold(1, 3, 1)": "view",  # sliding windows share slots
    "x.narrow(0, 1, 2)": "view",  # a slice
    "x[torch.tensor([False, True, True, False])]": "copy",  # mask gathers
    "y.movedim(0, 2).view(60)": "error",  # cannot merge
    "x.as_strided((4, 5), (5, 1), 1)": "error",  # runs off the end
    "x[2:].as_strided((4, 5), (5, 1), 0)": "view",  # offset from the storage start
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": "view",  # strides add up
    "y[:, :, :2].flatten(0, 1)": "view",  # the first two dims still merge
    "x.T.unbind(0)[2]": "view",  # a select
    "y.movedim(0, 2).reshape(60)": "copy",  # reshape copies where view fails
    "y[:, 1].flatten()": "copy",  # gap between the rows
}

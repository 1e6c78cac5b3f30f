# Replace each ... with "view", "copy" or "error".
CLASSIFY_MORE = {
    "x[1:].flatten()": "view",  # whole rows: still contiguous
    "x[:, 1:].flatten()": "copy",  # rows have a gap
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": "copy",  # stride 0 next to stride 5: no single step
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": "view",  # the two inner dims are x's own
    "y[:, ::2].flatten(1)": "copy",  # rows 0 and 2 of each block: a gap
    "y[:, :, ::2].flatten(0, 1)": "view",  # stride 20 = 4 * 5 still holds
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": "error",  # stride 5 then stride 0: view refuses
    "y.transpose(0, 1).flatten(1)": "copy",  # 20 then 1: not one step
    "x.T.view(5, 2, 2)": "view",  # splitting a dim always works
    "y[:, 1:3].view(6, 5)": "error",  # blocks of 2 rows with a gap between blocks
    "y[:, :, :2].flatten(0, 1)": "view",  # the first two dims still merge
    "y.mT.flatten(0, 1)": "copy",  # stride 20 then 1
    "y[:, :, 1].view(12)": "view",  # one column: strides 20 and 5 merge
    "y[:, 1].flatten()": "copy",  # gap between the rows
}

# Replace each ... with "view", "copy" or "error".
# x: shape (4, 5), stride (5, 1); y: shape (3, 4, 5), stride (20, 5, 1).
CLASSIFY_MORE = {
    # (3, 5) stride (5, 1), offset 5: rows follow each other -> one stride 1
    "x[1:].flatten()": "view",
    # (4, 4) stride (5, 1): 5 != 1 * 4, the merge needs a jump -> flatten copies
    "x[:, 1:].flatten()": "copy",
    # dim 0 has size 4, squeeze(0) leaves the shape alone and returns a view
    "x.squeeze(0)": "view",
    # windows of 3 every slot: stride (5, 1, 1), overlapping but one header
    "x.unfold(1, 3, 1)": "view",
    # rows 1 and 2: offset 5, same strides
    "x.narrow(0, 1, 2)": "view",
    # a boolean mask is advanced indexing: gathered into new storage
    "x[torch.tensor([False, True, True, False])]": "copy",
    # (4, 5, 3) stride (5, 1, 20): merging all three needs a jump, view refuses
    "y.movedim(0, 2).view(60)": "error",
    # offset 1 + 19 reaches slot 20, past the 20 slots of storage
    "x.as_strided((4, 5), (5, 1), 1)": "error",
    # offset counts from the start of the storage, not from x[2:]: slots 0..19
    "x[2:].as_strided((4, 5), (5, 1), 0)": "view",
    # (5, 3, 4) stride (1, 20, 5): diagonal of dims 1, 2 has stride 25
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": "view",
    # (3, 4, 2) stride (20, 5, 1): dims 0 and 1 are contiguous with each other (20 == 5 * 4)
    "y[:, :, :2].flatten(0, 1)": "view",
    # unbind returns selects: column 2 of x, stride (5,), offset 2
    "x.T.unbind(0)[2]": "view",
    # same layout as the view above; reshape copies where view refuses
    "y.movedim(0, 2).reshape(60)": "copy",
    # (3, 5) stride (20, 1): 20 != 1 * 5 -> copy
    "y[:, 1].flatten()": "copy",
}

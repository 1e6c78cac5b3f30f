# Grouped by verdict, then merged.
VIEWS = [
    "x[1:].flatten()",                              # rows 1..3 of x: strides (5, 1), 5 == 1*5
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)",    # merges (4, 5) with strides (5, 1): the stride-0 dim stays apart
    "y[:, :, ::2].flatten(0, 1)",                   # merges (3, 4) with strides (20, 5): 20 == 5*4
    "x.T.view(5, 2, 2)",                            # only splits a dimension
    "y[:, :, :2].flatten(0, 1)",                    # strides (20, 5): 20 == 5*4
    "y[:, :, 1].view(12)",                          # strides (20, 5): 20 == 5*4
]
COPIES = [
    "x[:, 1:].flatten()",                           # strides (5, 1) with 4 columns: 5 != 4
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)", # strides (0, 5): 0 != 5*4
    "y[:, ::2].flatten(1)",                         # strides (10, 1): 10 != 5
    "y.transpose(0, 1).flatten(1)",                 # strides (20, 1): 20 != 5
    "y.mT.flatten(0, 1)",                           # strides (20, 1): 20 != 5
    "y[:, 1].flatten()",                            # strides (20, 1): 20 != 5
]
ERRORS = [
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)",   # strides (5, 0): 5 != 0*3, view never copies
    "y[:, 1:3].view(6, 5)",                         # strides (20, 5): 20 != 5*2
]
CLASSIFY_MORE = {
    **dict.fromkeys(VIEWS, "view"),
    **dict.fromkeys(COPIES, "copy"),
    **dict.fromkeys(ERRORS, "error"),
}

# Replace each ... with your answer.
BATCHNORM = dict(
    parameters=0,
    state_dict=3,
    tracked_after_train=3,
    tracked_after_eval=3,
    tracked_dtype_after_to=str(torch.long),
    mean_dtype_after_to=str(torch.half),
)

# Replace each ... with your answer.
BATCHNORM = {
    "parameters": 0,
    "state_dict": 3,
    "tracked_after_train": 3,
    "tracked_after_eval": 3,
    "tracked_dtype_after_to": "int64",  # not str(torch.int64), which is "torch.int64"
    "mean_dtype_after_to": "float16",
}

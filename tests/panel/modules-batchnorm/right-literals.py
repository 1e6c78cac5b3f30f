# Replace each ... with your answer.
BATCHNORM = {
    "parameters": 0,  # an int
    "state_dict": 3,  # an int
    "tracked_after_train": 3,  # an int
    "tracked_after_eval": 3,  # an int
    "tracked_dtype_after_to": "torch.int64",  # a str
    "mean_dtype_after_to": "torch.float16",  # a str
}

# Replace each ... with your answer.
BATCHNORM = {
    "parameters": 2,  # weight and bias, as in section 2.4
    "state_dict": 5,
    "tracked_after_train": 3,
    "tracked_after_eval": 3,
    "tracked_dtype_after_to": "torch.int64",
    "mean_dtype_after_to": "torch.float16",
}

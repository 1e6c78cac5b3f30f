# Replace each ... with your answer.
BATCHNORM = {
    "parameters": 0,
    "state_dict": 3,
    "tracked_after_train": 24,  # 3 forwards x 8 samples
    "tracked_after_eval": 24,
    "tracked_dtype_after_to": "torch.int64",
    "mean_dtype_after_to": "torch.float16",
}

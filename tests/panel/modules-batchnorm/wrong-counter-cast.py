# Replace each ... with your answer.
BATCHNORM = {
    "parameters": 0,
    "state_dict": 3,
    "tracked_after_train": 3,
    "tracked_after_eval": 3,
    "tracked_dtype_after_to": "torch.float16",  # thinks .to(float16) casts every buffer
    "mean_dtype_after_to": "torch.float16",
}

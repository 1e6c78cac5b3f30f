# Replace each ... with your answer.
# affine=False registers weight and bias as None: no parameters, and state_dict keeps only
# running_mean, running_var and num_batches_tracked.
BATCHNORM = {
    "parameters": len([]),
    "state_dict": len(["running_mean", "running_var", "num_batches_tracked"]),
    "tracked_after_train": 1 + 1 + 1,  # one per training forward, not per sample
    "tracked_after_eval": 1 + 1 + 1,  # eval forwards update nothing
    "tracked_dtype_after_to": str(torch.int64),  # a module's dtype cast skips integer buffers
    "mean_dtype_after_to": str(torch.float16),
}

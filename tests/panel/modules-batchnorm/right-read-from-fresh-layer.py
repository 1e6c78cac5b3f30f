# Replace each ... with your answer.
# Work it out from a fresh layer's registrations, without running forwards.
_probe = nn.BatchNorm2d(4, affine=False)
_n_params = sum(1 for _ in _probe.parameters())
_n_entries = len(list(_probe.state_dict().keys()))
_probe.to(torch.float16)
BATCHNORM = {
    "parameters": _n_params,
    "state_dict": _n_entries,
    "tracked_after_train": 3,
    "tracked_after_eval": 3,
    "tracked_dtype_after_to": f"{_probe.num_batches_tracked.dtype}",
    "mean_dtype_after_to": f"{_probe.running_mean.dtype}",
}

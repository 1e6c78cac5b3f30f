# Replace each ... with your answer.
_bn = nn.BatchNorm2d(4, affine=False)
for _ in range(3):
    _bn(torch.randn(8, 4, 5, 5))
_after_train = int(_bn.num_batches_tracked)
_bn.eval()
_bn(torch.randn(8, 4, 5, 5))
_after_eval = int(_bn.num_batches_tracked)
_bn.to(torch.float16)

BATCHNORM = {
    "parameters": len(list(_bn.parameters())),
    "state_dict": len(_bn.state_dict()),
    "tracked_after_train": _after_train,
    "tracked_after_eval": _after_eval,
    "tracked_dtype_after_to": str(_bn.num_batches_tracked.dtype),
    "mean_dtype_after_to": str(_bn.running_mean.dtype),
}

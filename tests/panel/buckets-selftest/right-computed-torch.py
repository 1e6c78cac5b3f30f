# Replace each ... with your answer.
import math

import torch

# q1: rebuilt buckets in arrival order (last layer first); every bucket closes once it reaches 1 MiB.
_limit = int(1 * 1024 * 1024)
_buckets, _open = 0, 0
for _size in [599_076] * 3:
    _open += _size
    if _open >= _limit:
        _buckets, _open = _buckets + 1, 0
if _open:
    _buckets += 1

# q2: FSDP2 shards dim 0 the way torch.chunk cuts it.
_rank1_rows = torch.arange(7).chunk(2)[1].numel()

# q4: FSDP1 flat parameter: weight (12) then bias (3, already aligned), padded to a multiple of 2.
_total = 12 + 3
_padded = math.ceil(_total / 2) * 2
_chunk = _padded // 2
_start1 = _chunk  # rank 1's chunk starts here
_weight_on_rank1 = max(0, min(12, _start1 + _chunk) - _start1)

SELFTEST = {
    "q1": int(_buckets),  # an int
    "q2": int(_rank1_rows * 3),  # an int
    "q3": False,  # True or False
    "q4": int(_weight_on_rank1),  # an int
    "q5": 1,  # an int
}

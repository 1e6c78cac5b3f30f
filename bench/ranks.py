"""Benchmark: how long a launch of real ranks takes (``autograder.engine.ranks.run_on_ranks``), before
and after, in the same run.

Chapter 6's checks launch two gloo ranks for every input they draw, so a launch's own cost is paid
hundreds of times by a grading run and by the tests. Each side launches, in a fresh interpreter of
its own, a function that only asks its rank, and a three-step DDP training loop, ``--launches``
times each; the two sides alternate ``--repeat`` times. "Before" is the tree of a git revision
(``--before``, default ``HEAD~1``) unpacked from git; "after" is this checkout.

    .venv/bin/python bench/ranks.py [--before REV] [--repeat 3] [--launches 20]

Prints the median milliseconds per launch for each function and side, their ratio, and the load
average around the run. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import alternate  # noqa: E402

#: Run in each side's interpreter: milliseconds per launch of each function.
MEASURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import torch
from autograder.engine.ranks import run_on_ranks


def rank_only():
    import torch.distributed as dist
    return dist.get_rank()


def ddp_steps():
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel
    model = DistributedDataParallel(torch.nn.Linear(8, 4))
    for _ in range(3):
        model(torch.randn(5, 8)).sum().backward()
    return dist.get_rank()


found = {}
for fn in (rank_only, ddp_steps):
    run_on_ranks(fn)  # imports and first-call costs out of the measure
    started = time.perf_counter()
    for _ in range(int(sys.argv[2])):
        run_on_ranks(fn)
    found[fn.__name__] = (time.perf_counter() - started) / int(sys.argv[2]) * 1000
print(json.dumps(found))
"""


def measure(code: Path, launches: int) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", MEASURE, str(code), str(launches)], cwd=code,
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="HEAD~1", help="git revision to compare with (default: HEAD~1)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--launches", type=int, default=20)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    label, before, after = alternate(args.before, args.repeat, lambda code: measure(code, args.launches))
    print(f"{'function':12} {'before ' + label:>16} {'after':>8} {'ratio':>6}"
          f"   (ms per launch, median of {args.repeat})")
    for function in after:
        old_ms, new_ms = statistics.median(before[function]), statistics.median(after[function])
        print(f"{function:12} {old_ms:16.1f} {new_ms:8.1f} {old_ms / new_ms:5.2f}×")
    print(f"load average: {load_before:.2f} before the run, {os.getloadavg()[0]:.2f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

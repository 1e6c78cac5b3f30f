"""Benchmark: how long a verdict takes in a learner's kernel, before and after, in the same run.

A verdict observes an answer on every input its checks draw and computes the key (the reference and
every model of a mistake, run on the same inputs); every observation goes through the codec. Each
side runs the exercises' own references, visible and hidden cells, on the same seeds, in a fresh
interpreter of its own; the two sides alternate ``--repeat`` times. "Before" is the tree of a git
revision (``--before``, default ``HEAD~1``) unpacked from git; "after" is this checkout.

    .venv/bin/python bench/verdicts.py [--before REV] [--repeat 3] [--seeds 3] [GRADE_ID ...]

Prints the median seconds per visible-and-hidden pair of verdicts for each exercise and side, their
ratio, and the load average around the run. Not part of the test suite.
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

EXERCISES = ("leaves-momentum-step", "leaves-sgd-step", "views-can-view", "modules-count-params")

#: Run in each side's interpreter: seconds per verdict pair of each exercise's reference.
MEASURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from answer_key.keys import key_of
from autograder.engine.cases import lookup
from autograder.kernel import verdict
found = {}
for grade_id in sys.argv[3:]:
    reference = key_of(lookup(grade_id)).reference
    verdict(grade_id, reference, True, 1)  # imports and first-call costs out of the measure
    started = time.perf_counter()
    for seed in range(int(sys.argv[2])):
        for hidden in (False, True):
            verdict(grade_id, reference, hidden, 1000 + seed)
    found[grade_id] = (time.perf_counter() - started) / int(sys.argv[2])
print(json.dumps(found))
"""


def measure(code: Path, seeds: int, exercises: list[str]) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", MEASURE, str(code), str(seeds), *exercises], cwd=code,
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="HEAD~1", help="git revision to compare with (default: HEAD~1)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("exercises", nargs="*", default=list(EXERCISES))
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    label, before, after = alternate(args.before, args.repeat,
                                     lambda code: measure(code, args.seeds, args.exercises))
    print(f"{'exercise':24} {'before ' + label:>16} {'after':>8} {'ratio':>6}"
          f"   (s per verdict pair, median of {args.repeat})")
    for grade_id in args.exercises:
        old_s, new_s = statistics.median(before[grade_id]), statistics.median(after[grade_id])
        print(f"{grade_id:24} {old_s:16.3f} {new_s:8.3f} {old_s / new_s:5.2f}×")
    print(f"load average: {load_before:.2f} before the run, {os.getloadavg()[0]:.2f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

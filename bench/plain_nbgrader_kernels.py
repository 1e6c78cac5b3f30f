"""Benchmark: plain ``nbgrader autograde`` of one class with fresh kernels and with the tests' forked
kernels (``tests/warm_kernels.py``), in the same run, on copies of the same class.

    .venv/bin/python bench/plain_nbgrader_kernels.py [--chapter views] [--students 6] [--repeat 2]

Each student submits the catalogue's reference answers; both routes grade the same submissions and
must record the same scores. Prints a table of medians (seconds, wall clock) and the load average
around the run. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.pipeline.course import Course  # noqa: E402
from autograder.pipeline.grading.grade import autograde, scores  # noqa: E402
from autograder.pipeline.site.release import release  # noqa: E402
from tests.conftest import copy_course  # noqa: E402
from tests.grading import catalog  # noqa: E402
from tests.submissions import submit  # noqa: E402
from tests.warm_kernels import forked_kernels  # noqa: E402


def graded_once(template: Course, chapter: str, forked: bool) -> tuple[float, dict]:
    course = Course(Path(tempfile.mkdtemp(prefix="bench-kernels-")))
    shutil.copytree(template.root, course.root, dirs_exist_ok=True)
    started = time.monotonic()
    if forked:
        with forked_kernels():
            autograde(course, chapter)
    else:
        autograde(course, chapter)
    seconds = time.monotonic() - started
    found = scores(course, chapter)
    shutil.rmtree(course.root, ignore_errors=True)
    return seconds, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="views")
    parser.add_argument("--students", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=2)
    options = parser.parse_args()
    template = copy_course(Path(tempfile.mkdtemp(prefix="bench-kernels-class-")))
    release(template, [options.chapter])
    reference = {g: spellings[0][1] for g, spellings in catalog(options.chapter).RIGHT.items()}
    for index in range(options.students):
        submit(template, options.chapter, f"student-{index}", reference)
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {"fresh kernels": [], "forked kernels": []}
    recorded = {}
    for _ in range(options.repeat):
        for label, forked in (("fresh kernels", False), ("forked kernels", True)):
            seconds, recorded[label] = graded_once(template, options.chapter, forked)
            times[label].append(seconds)
    assert recorded["fresh kernels"] == recorded["forked kernels"], "the two routes recorded different scores"
    baseline = statistics.median(times["fresh kernels"])
    print(f"plain nbgrader autograde of {options.students} students of {options.chapter} "
          f"(median of {options.repeat}; load {load_before:.1f} -> {os.getloadavg()[0]:.1f})")
    print("| route | seconds | per student | vs fresh |\n|---|---|---|---|")
    for label, measured in times.items():
        median = statistics.median(measured)
        print(f"| {label} | {median:.1f} | {median / options.students:.2f} | {median / baseline:.2f}x |")
    shutil.rmtree(template.root, ignore_errors=True)


if __name__ == "__main__":
    main()

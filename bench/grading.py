"""Benchmark: a synthetic class of Chapter 1, graded by plain ``nbgrader autograde`` and by
``autograd-state grade`` in the same run; both must give full marks on exactly the same test cells
(the sandboxed grader also gives partial credit where plain nbgrader gives 0).

    .venv/bin/python bench/grading.py [--students 60] [--workers 2] [--keep DIR]

Each student's answer to each exercise is drawn (seeded) from the catalogue of right and wrong
answers (``tests/catalog/views.py``), about half of them right. Prints the times, the ratio and
the sandboxed grader's throughput per core. Not part of the test suite: it takes minutes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.checks import exercises  # noqa: E402
from autograder.gradeid import test_cell  # noqa: E402
from autograder.pipeline.course import Course  # noqa: E402
from autograder.pipeline.grade import scores  # noqa: E402
from autograder.pipeline.release import release  # noqa: E402
from autograder.pipeline.sandboxed import grade_chapter  # noqa: E402
from tests.catalog.views import RIGHT, WRONG  # noqa: E402
from tests.conftest import copy_course  # noqa: E402
from tests.submissions import submit  # noqa: E402

CHAPTER = "views"


def synthetic_class(course: Course, students: int, seed: int = 6) -> None:
    """``students`` submissions, each answer right or a catalogued wrong one, about half right."""
    pick = random.Random(seed)
    for number in range(students):
        answers = {}
        for grade_id in exercises(CHAPTER):
            wrong = WRONG.get(grade_id, [])
            if wrong and pick.random() < 0.5:
                answers[grade_id] = pick.choice(wrong)[1]
            else:
                answers[grade_id] = pick.choice(RIGHT[grade_id])[1]
        submit(course, CHAPTER, f"student-{number:03d}", answers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="keep the two course copies in this folder")
    args = parser.parse_args()

    base = args.keep or Path(tempfile.mkdtemp(prefix="grading-bench-"))
    plain = copy_course(base / "plain")
    release(plain)
    synthetic_class(plain, args.students)
    sandboxed = Course(base / "sandboxed")
    shutil.copytree(plain.root, sandboxed.root)

    started = time.monotonic()
    plain.nbgrader("autograde", CHAPTER, "--force", check=False)
    plain_seconds = time.monotonic() - started

    started = time.monotonic()
    outcome = grade_chapter(sandboxed, CHAPTER, workers=args.workers, progress=False)
    sandboxed_seconds = time.monotonic() - started

    expected, found = scores(plain, CHAPTER), scores(sandboxed, CHAPTER)
    assert len(expected) == args.students, f"nbgrader graded {len(expected)} of {args.students}"
    full = {test_cell(g, hidden): ex.points(hidden) for g, ex in exercises(CHAPTER).items() for hidden in (False, True)}
    disagree = [(s, c) for s, cells in expected.items() for c, score in cells.items()
                if (score == full[c]) != (found[s].get(c) == full[c])]
    assert not disagree, f"full marks differ between nbgrader and the sandboxed grader: {disagree}"
    partial = sum(1 for s, cells in found.items() for c, score in cells.items() if 0 < score < full[c])
    in_sandbox = sum(outcome.seconds.values())
    print(f"{args.students} submissions of {CHAPTER}, {args.workers} workers; full marks on the same cells, "
          f"{partial} cells with partial credit in the sandboxed grader")
    print(f"{'grader':<34}{'seconds':>10}{'per submission':>16}")
    print(f"{'nbgrader autograde':<34}{plain_seconds:>10.1f}{plain_seconds / args.students:>16.2f}")
    print(f"{'autograd-state grade':<34}{sandboxed_seconds:>10.1f}{sandboxed_seconds / args.students:>16.2f}")
    print(f"ratio: {plain_seconds / sandboxed_seconds:.1f}x faster")
    print(f"sandbox time per submission (one core): {in_sandbox / args.students:.2f} s; "
          f"throughput {3600 * args.students / sandboxed_seconds / args.workers:.0f} submissions per core-hour")
    if not args.keep:
        shutil.rmtree(base)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: a synthetic class per chapter, graded in the same run by plain ``nbgrader autograde``
and by ``autograd-state grade`` three ways: every submission from the top; every submission forked
from the chapter's locked prefix, run once, recorded through nbgrader's own ``Autograde``
converter (``--nbgrader-recording``); and forked from the prefix, recorded on one gradebook
session (the default). All four must give full marks on exactly the same test cells, and the three
sandboxed runs (same seed) the same score on every cell (the sandboxed grader also gives partial
credit where plain nbgrader gives 0).

    .venv/bin/python bench/grading.py [--students 48] [--workers 2] [--chapters views views-closed-book]

Each student's answer to each exercise is drawn (seeded) from the chapter's catalogue of right and
wrong answers (``tests/catalog/<chapter>.py``), about half of them right. Prints a table of times,
the ratio to plain nbgrader and the load average around each run. Not part of the test suite: it
takes minutes (plain nbgrader, about 12 s per Chapter 1 submission, most of them).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.engine.cases import exercises  # noqa: E402
from autograder.engine.gradeid import test_cell  # noqa: E402
from autograder.pipeline.course import Course  # noqa: E402
from autograder.pipeline.grading.grade import NBGRADER_EXECUTES, scores  # noqa: E402
from autograder.pipeline.grading.sandboxed import grade_chapter  # noqa: E402
from autograder.pipeline.site.release import release  # noqa: E402
from tests.conftest import copy_course  # noqa: E402
from tests.submissions import submit  # noqa: E402

SEED = 20


def synthetic_class(course: Course, chapter: str, students: int, seed: int = 6) -> None:
    """``students`` submissions, each answer right or a catalogued wrong one, about half right."""
    catalogue = importlib.import_module(f"tests.catalog.{chapter.replace('-', '_')}")
    pick = random.Random(seed)
    for number in range(students):
        answers = {}
        for grade_id in exercises(chapter):
            wrong = catalogue.WRONG.get(grade_id, [])
            if wrong and pick.random() < 0.5:
                answers[grade_id] = pick.choice(wrong)[1]
            else:
                answers[grade_id] = pick.choice(catalogue.RIGHT[grade_id])[1]
        submit(course, chapter, f"student-{number:03d}", answers)


def timed(run) -> tuple[float, str]:
    """Seconds a run took, and the 1-minute load average before and after it."""
    before = os.getloadavg()[0]
    started = time.monotonic()
    run()
    seconds = time.monotonic() - started
    return seconds, f"{before:.1f}-{os.getloadavg()[0]:.1f}"


SANDBOXED = (  # (label, fork from the prefix, one gradebook session)
    ("autograd-state grade, every cell each time", False, True),
    ("autograd-state grade, prefix, nbgrader recording", True, False),
    ("autograd-state grade (prefix once, one session)", True, True),
)


def bench_chapter(base: Path, chapter: str, students: int, workers: int) -> list[tuple[str, float, str]]:
    """Grade one chapter's class four ways; returns ``(grader, seconds, load)`` rows."""
    plain = copy_course(base / chapter / "plain")
    release(plain, [chapter])
    synthetic_class(plain, chapter, students)
    courses = [Course(base / chapter / f"sandboxed-{number}") for number in range(len(SANDBOXED))]
    for course in courses:
        shutil.copytree(plain.root, course.root)

    rows = [("nbgrader autograde", *timed(lambda: plain.nbgrader("autograde", chapter, "--force", *NBGRADER_EXECUTES,
                                                               check=False)))]
    for course, (label, use_prefix, one_session) in zip(courses, SANDBOXED, strict=True):
        rows.append((label, *timed(lambda course=course, use_prefix=use_prefix, one_session=one_session: grade_chapter(
            course, chapter, workers=workers, progress=False, seed=SEED, prefix=use_prefix, one_session=one_session))))

    expected = scores(plain, chapter)
    sandboxed = [scores(course, chapter) for course in courses]
    assert len(expected) == students, f"nbgrader graded {len(expected)} of {students}"
    assert all(s == sandboxed[-1] for s in sandboxed), "the sandboxed runs score differently from one another"
    full = {test_cell(g, hidden): ex.points(hidden) for g, ex in exercises(chapter).items() for hidden in (False, True)}
    disagree = [(s, c) for s, cells in expected.items() for c, score in cells.items()
                if (score == full[c]) != (sandboxed[-1][s].get(c) == full[c])]
    assert not disagree, f"full marks differ between nbgrader and the sandboxed grader: {disagree}"
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=48)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chapters", nargs="+", default=["views", "views-closed-book"])
    parser.add_argument("--keep", type=Path, default=None, help="keep the course copies in this folder")
    args = parser.parse_args()

    base = args.keep or Path(tempfile.mkdtemp(prefix="grading-bench-"))
    results = {chapter: bench_chapter(base, chapter, args.students, args.workers) for chapter in args.chapters}
    print(f"{args.students} submissions per chapter, {args.workers} workers, {os.cpu_count()} cores; "
          "full marks on the same cells in all four, identical scores in the three sandboxed runs")
    print(f"| {'chapter':<18} | {'grader':<50} | {'seconds':>8} | {'per submission':>14} | {'vs nbgrader':>11} "
          f"| {'load average':>12} |")
    print(f"|{'-' * 20}|{'-' * 52}|{'-' * 10}|{'-' * 16}|{'-' * 13}|{'-' * 14}|")
    for chapter, rows in results.items():
        plain_seconds = rows[0][1]
        for grader, seconds, load in rows:
            print(f"| {chapter:<18} | {grader:<50} | {seconds:>8.1f} | {seconds / args.students:>14.2f} "
                  f"| {plain_seconds / seconds:>10.1f}x | {load:>12} |")
    if not args.keep:
        shutil.rmtree(base)
    return 0


if __name__ == "__main__":
    sys.exit(main())

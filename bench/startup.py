"""Benchmark: how fast the command line answers, before and after, in the same run.

"Before" is the course at a git revision (``--before``, default: the merge base with ``main``),
unpacked from git into a scratch folder and run without this environment's start-up hook (``python
-S`` with the virtual environment's packages on the path, as every process ran before
``autograder/startup.py`` existed). "After" is this checkout, run as ``make setup`` installs it.
Each is measured on its own copy of the course, graded once by its own code:

- ``autograd-state --help`` and ``autograd-state grade --help``;
- ``python -c "import nbformat"`` (every process that reads a notebook: nbgrader, the command line);
- a no-change ``grade`` of a synthetic class (nothing to grade: it should answer at once).

    .venv/bin/python bench/startup.py [--before REV] [--students 24] [--repeat 5] [--chapter views-closed-book]

Prints a table of medians (seconds, wall clock) and the load average around the run. Grading the
two classes once needs root (the sandbox). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.pipeline.course import Course  # noqa: E402
from bench.grading import synthetic_class  # noqa: E402

SITE = sysconfig.get_paths()["purelib"]
COURSE_FILES = ("nbgrader_config.py", "_config.yml", "_toc.yml", "notebooks")


def unpack(revision: str, target: Path) -> Path:
    """The tree of ``revision``, as git holds it."""
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as bundle:
        bundle.extractall(target, filter="data")
    return target


Measured = dict[str, list[float]]


def alternate(before: str, repeat: int, measure: Callable[[Path], dict[str, float]]) -> tuple[str, Measured, Measured]:
    """Measure the tree of ``before`` and this checkout in turn, ``repeat`` times each (``measure``
    runs its side's code in fresh interpreters of its own): the revision's short name, then each
    side's values by what was measured."""
    label = subprocess.run(["git", "rev-parse", "--short", before], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip()
    found: tuple[Measured, Measured] = ({}, {})
    with tempfile.TemporaryDirectory() as scratch:
        sides = (unpack(before, Path(scratch) / "before"), ROOT)
        for _ in range(repeat):
            for code, values in zip(sides, found, strict=True):
                for name, value in measure(code).items():
                    values.setdefault(name, []).append(value)
    return label, *found


class Side:
    """One side of the comparison: its code, its course, how it runs a command."""

    def __init__(self, name: str, code: Path, course: Path, bare: bool) -> None:
        self.name, self.code, self.course, self.bare = name, code, course, bare

    def command(self, *args: str) -> list[str]:
        """``python -c`` running ``args`` (a module and its arguments, or ``-c CODE``)."""
        if not self.bare:
            return [sys.executable, *args]
        # No site: no .pth start-up, no editable-install finder; the revision's code first on the path.
        prelude = f"import sys; sys.path[:0] = [{str(self.code)!r}, {SITE!r}]; "
        if args[0] == "-m":
            module, rest = args[1], list(args[2:])
            body = (f"import runpy; sys.argv = [{module!r}, *{rest!r}]; "
                    f"runpy.run_module({module!r}, run_name='__main__')")
        else:
            body = args[1]
        return [sys.executable, "-S", "-c", prelude + body]

    def cli(self, *args: str) -> list[str]:
        return self.command("-m", "autograder.pipeline.cli", "--root", str(self.course), *args)

    def setup_env(self) -> dict[str, str]:
        """The environment of the one-off set-up (release, first grading): its code first."""
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        return {**os.environ, "PYTHONPATH": str(self.code), "PATH": path}


def median_seconds(command: list[str], repeat: int, cwd: Path) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def prepare(side: Side, chapter: str, students: int) -> None:
    """Release the chapter, submit a synthetic class and grade it once, with the side's own code."""
    env = side.setup_env()
    run = [sys.executable, "-m", "autograder.pipeline.cli", "--root", str(side.course)]
    subprocess.run([*run, "release", chapter], env=env, check=True, capture_output=True)
    synthetic_class(Course(side.course), chapter, students)
    graded = subprocess.run([*run, "grade", chapter, "--workers", "2"], env=env, capture_output=True, text=True)
    if graded.returncode != 0:
        raise SystemExit(f"{side.name}: grading failed:\n{graded.stdout}\n{graded.stderr}")
    again = subprocess.run(side.cli("grade", chapter), capture_output=True, text=True, check=True)
    if "graded 0 submission(s)" not in again.stdout:
        raise SystemExit(f"{side.name}: the second grade was not a no-change run:\n{again.stdout}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=None, help="git revision to compare with (default: merge base with main)")
    parser.add_argument("--students", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chapter", default="views-closed-book")
    args = parser.parse_args()
    before = args.before or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True,
                                           text=True, check=True).stdout.strip()
    label = subprocess.run(["git", "rev-parse", "--short", before], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        old = unpack(before, scratch / "before")
        sides = []
        for name, code, bare in ((f"before ({label})", old, True), ("after (this checkout)", ROOT, False)):
            course = scratch / f"course-{len(sides)}"
            course.mkdir()
            for item in COURSE_FILES:
                source = code / item
                (shutil.copytree if source.is_dir() else shutil.copy2)(source, course / item)
            sides.append(Side(name, code, course, bare))
        for side in sides:
            print(f"preparing {side.name}: {args.students} submissions of {args.chapter}, graded once", flush=True)
            prepare(side, args.chapter, args.students)
        load = os.getloadavg()[0]
        measures = [
            ("`autograd-state --help`", lambda s: s.command("-m", "autograder.pipeline.cli", "--help")),
            ("`autograd-state grade --help`", lambda s: s.command("-m", "autograder.pipeline.cli", "grade", "--help")),
            ('`python -c "import nbformat"`', lambda s: s.command("-c", "import nbformat")),
            (f"no-change `grade {args.chapter}`, {args.students} submissions", lambda s: s.cli("grade", args.chapter)),
        ]
        rows = [(what, *(median_seconds(make(s), args.repeat, s.course) for s in sides)) for what, make in measures]
        print(f"\n| command | {sides[0].name} | {sides[1].name} | speed-up |\n|---|---|---|---|")
        for what, old_seconds, new_seconds in rows:
            print(f"| {what} | {old_seconds:.2f} s | {new_seconds:.2f} s | {old_seconds / new_seconds:.1f}x |")
        print(f"\nmedian of {args.repeat} runs each; 1-minute load average {load:.1f} before the timed runs, "
              f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())

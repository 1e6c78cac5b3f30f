"""How fast the book builds: clean, with nothing changed, and after one chapter changes.

    .venv/bin/python bench/build.py [--chapter CHAPTER]

Works on a throwaway copy of the course (your own ``_build`` is left alone) and runs the real
``autograd-state book`` three times:

1. clean: nothing built yet, every chapter executes;
2. no change: the execution cache answers, nothing executes (target: at most 15 % of clean);
3. one chapter changed (a comment added to its first code cell): only that chapter executes.

It prints the times side by side and the chapters that each build executed, as read from
Jupyter Book's log. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
COURSE_FILES = ("nbgrader_config.py", "_config.yml", "_toc.yml")
COURSE_DIRS = ("notebooks", "book", "_vendor")
TARGET_RATIO = 0.15
EXECUTED = re.compile(r"chapters/([\w-]+)\.ipynb: Executing notebook")


def copy_course(target: Path) -> None:
    for name in COURSE_FILES:
        shutil.copy2(ROOT / name, target / name)
    for name in COURSE_DIRS:
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))


def build(root: Path, label: str) -> tuple[float, list[str]]:
    """Run ``autograd-state book`` on ``root``; the wall time and the chapters it executed."""
    command = [str(Path(sys.executable).parent / "autograd-state"), "--root", str(root), "book"]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{label} build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return seconds, sorted(set(EXECUTED.findall(result.stdout + result.stderr)))


def touch_chapter(root: Path, chapter: str) -> None:
    """Change one chapter's code without changing what it teaches: a comment in its first code cell."""
    path = root / "notebooks" / chapter / f"{chapter}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    cell = next(cell for cell in notebook.cells if cell.cell_type == "code")
    cell.source += "\n# benchmark: a one-line change"
    nbformat.write(notebook, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", default="views", help="the chapter to change in step 3 (default: views)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="book-bench-") as folder:
        root = Path(folder)
        copy_course(root)
        chapters = sorted(p.parent.name for p in (root / "notebooks").glob("*/*.ipynb") if p.stem == p.parent.name)
        print(f"building a copy of the course with {len(chapters)} chapter(s): {', '.join(chapters)}", flush=True)
        clean = build(root, "clean")
        again = build(root, "no-change")
        touch_chapter(root, args.chapter)
        changed = build(root, "one-chapter")

    rows = [("clean build", clean), ("no-change rebuild", again), (f"'{args.chapter}' changed", changed)]
    print(f"\n{'build':<22}{'seconds':>9}{'of clean':>10}  chapters executed")
    for label, (seconds, executed) in rows:
        print(f"{label:<22}{seconds:>9.1f}{seconds / clean[0]:>9.0%}  {', '.join(executed) or '-'}")
    ratio = again[0] / clean[0]
    ok_ratio = ratio <= TARGET_RATIO
    ok_one = changed[1] == [args.chapter]
    print(f"\nno-change rebuild / clean build = {ratio:.0%} (target <= {TARGET_RATIO:.0%}): "
          f"{'met' if ok_ratio else 'NOT met'}")
    print(f"after changing '{args.chapter}', only it re-executed: {'yes' if ok_one else 'NO'}")
    return 0 if ok_ratio and ok_one and not again[1] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Build the static site from the student edition: stage, execute, check for leaks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from autograder.pipeline.course import Course, is_answer_cell, is_test_cell, read_notebook
from autograder.pipeline.leaks import find_leaks, secret_lines
from autograder.pipeline.release import release

SKIP_TAGS = ("skip-execution",)
BOOK_FILES = ("_config.yml", "_toc.yml")
BOOK_DIRS = ("book", "_vendor")


def stage_chapter(student_edition: Path, target: Path) -> None:
    """Copy a student notebook into the book tree, its answer and test cells tagged to skip.

    The book shows answer and test cells as learners get them (unanswered) and executes every
    other cell; an answer cell is a leaf, so nothing else needs its names.
    """
    notebook = read_notebook(student_edition)
    for cell in notebook.cells:
        if cell.cell_type == "code" and (is_answer_cell(cell) or is_test_cell(cell)):
            tags = cell.metadata.setdefault("tags", [])
            tags.extend(tag for tag in SKIP_TAGS if tag not in tags)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)


def stage(course: Course) -> Path:
    """Lay out ``_build/stage``: the book's files plus the student edition of every chapter."""
    staged = course.build / "stage"
    if staged.exists():
        # Keep unchanged chapter files in place so the execution cache sees no change.
        for name in BOOK_DIRS:
            shutil.rmtree(staged / name, ignore_errors=True)
    staged.mkdir(parents=True, exist_ok=True)
    for name in BOOK_FILES:
        shutil.copy2(course.root / name, staged / name)
    for name in BOOK_DIRS:
        shutil.copytree(course.root / name, staged / name)
    for chapter in course.chapters():
        target = staged / "chapters" / f"{chapter}.ipynb"
        fresh = staged / "chapters" / f".{chapter}.new.ipynb"
        stage_chapter(course.release_notebook(chapter), fresh)
        if target.exists() and target.read_bytes() == fresh.read_bytes():
            fresh.unlink()
        else:
            fresh.replace(target)
    return staged


def build_book(course: Course) -> Path:
    """Release every chapter, stage the book, build it with warnings as errors, refuse leaks.

    Returns:
        The folder of the built site (``_build/html``).

    Raises:
        RuntimeError: when the build fails or the site shows solution code or a hidden test.
    """
    course.build.mkdir(exist_ok=True)
    release(course, db=f"sqlite:///{course.build / 'book-gradebook.db'}")
    staged = stage(course)
    result = subprocess.run(
        [str(Path(sys.executable).parent / "jupyter-book"), "build", str(staged), "--path-output", str(course.root),
         "-W", "-n", "--keep-going"],
        cwd=course.root,
    )
    site = course.build / "html"
    if result.returncode != 0:
        raise RuntimeError(f"jupyter-book build failed (exit {result.returncode}); see the log above")
    editions = [course.release_notebook(chapter) for chapter in course.chapters()]
    secrets = set()
    for chapter in course.chapters():
        secrets |= secret_lines(course.source_notebook(chapter), *editions)
    leaks = find_leaks(site, secrets)
    if leaks:
        shown = "\n".join(f"  {leak.path.relative_to(site)}: {leak.line!r}" for leak in leaks[:20])
        raise RuntimeError(f"the site shows solution code or hidden tests:\n{shown}")
    return site

"""Shared fixtures: throwaway copies of the course for tests that run nbgrader or build the book."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from autograder.pipeline.course import ROOT, Course

os.environ.setdefault("MPLBACKEND", "Agg")

COURSE_FILES = ("nbgrader_config.py", "_config.yml", "_toc.yml")
COURSE_DIRS = ("notebooks", "book", "_vendor")


#: The files that take longest (a few minutes each, measured with ``--durations``). The test runner
#: hands whole files to its two workers (``--dist loadfile``) in collection order
#: (``--no-loadscope-reorder``): these go first, since one of them started last runs alone at the end.
LONGEST_FIRST = (
    "tests/chapters/test_grading_buckets.py",
    "tests/test_determinism_ranks.py",
    "tests/chapters/test_grading_capstone_closed_book.py",
    "tests/chapters/test_grading_capstone.py",
    "tests/chapters/test_grading_modules.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first, every other test in the order it was collected."""
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


def copy_course(target: Path) -> Course:
    """A fresh course root with this checkout's sources and nothing generated."""
    target.mkdir(parents=True, exist_ok=True)
    for name in COURSE_FILES:
        shutil.copy2(ROOT / name, target / name)
    for name in COURSE_DIRS:
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return Course(target)


def released_copy(tmp_path_factory: pytest.TempPathFactory, target: Path, chapters: list[str]) -> Course:
    """A course at ``target`` with ``chapters`` released into a gradebook of its own, copied from a
    release this test process made once (a release runs nbgrader's converter, seconds a chapter;
    a copy takes milliseconds). Its stamps are written again: they name the gradebook's path."""
    from autograder.pipeline.site.release import release, stamp

    template = tmp_path_factory.getbasetemp() / "released-once" / "-".join(chapters) / "course"
    if not template.exists():
        release(copy_course(template), chapters)
    shutil.copytree(template, target)
    course = Course(target)
    for chapter in chapters:
        stamp(course, chapter)
    return course


@pytest.fixture(scope="session")
def released_course(tmp_path_factory) -> Course:
    """A course copy with every chapter released into its own gradebook."""
    from autograder.pipeline.site.release import release

    course = copy_course(tmp_path_factory.mktemp("course"))
    release(course)
    return course


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    from tests import cases, grading

    grading.parametrize(metafunc)
    cases.parametrize(metafunc)


@dataclass(frozen=True)
class BuiltBook:
    """Both editions of the book, built once from a course copy."""

    course: Course
    student: Path
    instructor: Path


@pytest.fixture(scope="session")
def built_book(tmp_path_factory, worker_id) -> BuiltBook:
    """Both editions built once per test run, shared by every xdist worker (a build takes a while)."""
    from filelock import FileLock

    from autograder.pipeline.site.book import build_book

    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    root = shared / "built-book"
    with FileLock(str(shared / "built-book.lock"), timeout=1800):
        if not (root / "built").exists():
            shutil.rmtree(root, ignore_errors=True)
            course = copy_course(root)
            instructor = build_book(course, edition="instructor")
            (root / "built").write_text(str(instructor))
    course = Course(root)
    return BuiltBook(course, course.build / "html", Path((root / "built").read_text()))


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright, for the session (skips when there is none)."""
    from tests.browser import chromium_or_skip, launch

    sync_api = chromium_or_skip()
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()

"""Shared fixtures: throwaway copies of the course for tests that run nbgrader or build the book."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from autograder.pipeline.course import ROOT, Course

os.environ.setdefault("MPLBACKEND", "Agg")

COURSE_FILES = ("nbgrader_config.py", "_config.yml", "_toc.yml")
COURSE_DIRS = ("notebooks", "book", "_vendor")


def copy_course(target: Path) -> Course:
    """A fresh course root with this checkout's sources and nothing generated."""
    target.mkdir(parents=True, exist_ok=True)
    for name in COURSE_FILES:
        shutil.copy2(ROOT / name, target / name)
    for name in COURSE_DIRS:
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return Course(target)


@pytest.fixture(scope="session")
def released_course(tmp_path_factory) -> Course:
    """A course copy with every chapter released into its own gradebook."""
    from autograder.pipeline.release import release

    course = copy_course(tmp_path_factory.mktemp("course"))
    release(course)
    return course


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    from tests.grading import parametrize

    parametrize(metafunc)

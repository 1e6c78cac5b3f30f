"""nbgrader's exchange end to end, the route a JupyterHub course takes: the instructor releases a
chapter, learners fetch it, work it and submit it, the instructor collects the submissions with
``nbgrader collect`` and grades what arrives with ``autograd-state grade``."""

from __future__ import annotations

import copy
import os
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.engine.cases import exercises
from autograder.pipeline.cli import main
from autograder.pipeline.course import nbgrader_meta
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog.views import RIGHT
from tests.conftest import copy_course

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)"),
]
CHAPTER = "views"
COURSE_ID = "autograd-state"


def nbgrader(cwd, *args: str) -> str:
    """One nbgrader command as a learner's or instructor's terminal runs it."""
    path = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PATH": path}, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def work(notebook_path, paste_test_cell: bool) -> None:
    """A learner's answers, typed into the fetched notebook (and, for one, a pasted test cell)."""
    notebook = nbformat.read(notebook_path, as_version=4)
    for cell in list(notebook.cells):
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in RIGHT:
            cell.source = RIGHT[grade_id][0][1]
        if paste_test_cell and grade_id == "views-classify-tests":
            pasted = copy.deepcopy(cell)
            pasted["id"] = "pasted"
            notebook.cells.insert(notebook.cells.index(cell) + 1, pasted)
    nbformat.write(notebook, notebook_path)


def test_release_fetch_submit_collect_then_grade(tmp_path) -> None:
    course = copy_course(tmp_path / "course")
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's exchange is a shared, world-writable folder
    where = [f"--Exchange.root={exchange}", f"--CourseDirectory.course_id={COURSE_ID}"]

    assert main(["--root", str(course.root), "release", CHAPTER]) == 0
    assert "Released as" in nbgrader(course.root, "release_assignment", CHAPTER, *where)
    for learner, paste in (("ada", False), ("bob", True)):
        home = tmp_path / learner
        home.mkdir()
        nbgrader(home, "fetch_assignment", CHAPTER, *where)
        work(home / CHAPTER / f"{CHAPTER}.ipynb", paste)
        assert "Submitted as" in nbgrader(home, "submit", CHAPTER, "--student", learner, *where)
    nbgrader(course.root, "collect", CHAPTER, *where)
    for learner in ("ada", "bob"):
        assert (course.submitted / learner / CHAPTER / "timestamp.txt").exists()

    assert main(["--root", str(course.root), "grade", CHAPTER, "--workers", "2"]) == 0
    table = scores(course, CHAPTER)
    full = {g: float(e.points(False) + e.points(True)) for g, e in exercises(CHAPTER).items()}
    assert sum(table["ada"].values()) == sum(full.values())
    classify = sum(v for k, v in table["bob"].items() if k.startswith("views-classify-tests"))
    assert classify == 0 and sum(table["bob"].values()) == sum(full.values()) - full["views-classify"]
    with Gradebook(course.gradebook_url) as gradebook:
        assert gradebook.find_submission(CHAPTER, "bob").timestamp is not None, "the exchange's timestamp"
    flags = (course.autograded / f"{CHAPTER}-flags.csv").read_text()
    assert "bob" in flags and "views-classify-tests appears 2 times" in flags and "ada" not in flags

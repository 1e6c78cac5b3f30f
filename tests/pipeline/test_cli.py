"""Every command error is one line that says what to do (exit status 2), its traceback only under
``--debug``; and the instructor guide's own command lines run as written, through a shell."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.pipeline.cli import CommandError, main
from autograder.pipeline.course import ROOT
from tests.conftest import copy_course, released_copy

pytestmark = pytest.mark.nbgrader
CHAPTER = "views-closed-book"
GUIDE = ROOT / "book" / "instructors.md"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("cli") / "course", [CHAPTER])
    for student in ("ada", "bob"):
        path = course.submitted / student / CHAPTER / f"{CHAPTER}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_bytes(course.release_notebook(CHAPTER).read_bytes())
    return course


def one_line_error(capsys) -> str:
    """The error the command printed: one line on stderr besides its progress bars (each redrawn with \\r)."""
    printed = capsys.readouterr().err
    said = [line for line in printed.split("\n") if line and not line.startswith("\r")]
    assert len(said) == 1 and "Traceback" not in printed, printed
    return said[0]


def test_a_missing_path_is_named_with_its_tilde_expanded(course, capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    code = main(["--root", str(course.root), "collect", CHAPTER, "~/Downloads/views submissions.zip"])
    assert code == 2
    error = one_line_error(capsys)
    assert f"{tmp_path}/Downloads/views submissions.zip: no such file or folder" in error
    assert main(["--root", str(course.root), "collect", CHAPTER, str(course.root), "--roster", "~/roster.csv"]) == 2
    assert f"cannot read the roster {tmp_path}/roster.csv: no such file or directory" in one_line_error(capsys)


def test_a_student_who_matches_no_one_is_an_error_not_zero_graded(course, capsys) -> None:
    assert main(["--root", str(course.root), "grade", CHAPTER, "--student", "ann lee", "--student", "ada"]) == 2
    error = one_line_error(capsys)
    assert "--student 'ann lee': no submission of views-closed-book" in error and "ada, bob" in error
    assert not (course.autograded / f"{CHAPTER}-flags.csv").exists(), "nothing was graded"


def test_unknown_and_unreleased_chapters_say_what_to_do(course, capsys) -> None:
    assert main(["--root", str(course.root), "grade", "view"]) == 2
    assert "no chapter 'view' in this course; the chapters are buckets" in one_line_error(capsys)
    assert main(["--root", str(course.root), "report", "views"]) == 2
    assert "views is not released yet: run `autograd-state release views` first" in one_line_error(capsys)
    assert main(["--root", str(course.root / "notebooks"), "export"]) == 2
    assert "not a course (no nbgrader_config.py in it)" in one_line_error(capsys)


def test_an_unexpected_error_is_one_line_and_its_traceback_is_shown_under_debug(course, capsys, tmp_path) -> None:
    broken = tmp_path / "gradebook.db"
    broken.write_text("not a database")
    arguments = ["--root", str(course.root), "--db", f"sqlite:///{broken}", "export"]
    assert main(arguments) == 2
    error = one_line_error(capsys)
    assert error.startswith("autograd-state export: ") and "(run again with --debug to see where it failed)" in error
    with pytest.raises(Exception) as raised:  # noqa: PT011 - whatever nbgrader raises, shown as raised
        main(["--debug", *arguments])
    assert not isinstance(raised.value, CommandError)
    with pytest.raises(CommandError, match="no chapter 'view'"):
        main(["--debug", "--root", str(course.root), "grade", "view"])


def test_what_nbgrader_refuses_is_one_line_naming_its_exception(tmp_path, capsys) -> None:
    """nbgrader logs a traceback per notebook it cannot convert: the command says the exception, once."""
    course = copy_course(tmp_path / "course")
    source = course.source_notebook(CHAPTER)
    notebook = json.loads(source.read_text())
    answer = next(c for c in notebook["cells"] if (c["metadata"].get("nbgrader") or {}).get("solution"))
    notebook["cells"].append(answer)
    source.write_text(json.dumps(notebook))  # one grade id twice: nbgrader refuses the source
    assert main(["--root", str(course.root), "release", CHAPTER]) == 2
    error = one_line_error(capsys)
    assert f"nbgrader GenerateAssignment {CHAPTER} failed: jsonschema.exceptions.ValidationError: " in error


def guide_lines(heading: str) -> list[str]:
    """The command lines of the first bash block after ``heading`` in the guide, comments dropped."""
    text = GUIDE.read_text()
    block = re.search(r"```bash\n(.*?)```", text[text.index(heading):], re.DOTALL).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.startswith(".venv/bin/")]


def test_the_guides_examples_run_as_written(tmp_path) -> None:
    """Each line through bash, in a course folder whose ``.venv/bin/autograd-state`` runs this
    command line on that course: the shell leaves a quoted ``~`` as it is, the command expands it.
    The downloads hold a truncated notebook each (nothing to grade, so no sandbox is started)."""
    course = copy_course(tmp_path / "course")
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    broken = json.dumps({"cells": [], "metadata": {}})[:20]
    for name, member in (("views.zip", "ann/views.ipynb"), ("views submissions.zip", "leecy_3003_9001_views.ipynb"),
                         ("views-closed-book.zip", f"ann/{CHAPTER}.ipynb")):
        with zipfile.ZipFile(home / "Downloads" / name, "w") as bundle:
            bundle.writestr(member, broken)
    (course.root / "canvas-grades.csv").write_text(
        'Student,ID,SIS User ID,SIS Login ID,Section\n"Lee, Cy",3003,S-3,cy,Section A\n"May, Ann",3004,S-4,may,A\n')
    command = course.root / ".venv" / "bin" / "autograd-state"
    command.parent.mkdir(parents=True)
    command.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m autograder.pipeline.cli "
                       f"--root {shlex.quote(str(course.root))} \"$@\"\n")
    command.chmod(0o755)
    lines = [*guide_lines("## A chapter, start to finish"), *guide_lines("## Closed-book companions"),
             *guide_lines("## Grades into Canvas or Moodle")]
    assert any('"~/Downloads/views submissions.zip"' in line for line in lines), "the guide's quoted ~ is run"
    printed = {}
    for line in lines:
        run = subprocess.run(["bash", "-c", line], cwd=course.root, capture_output=True, text=True, timeout=600,
                             env={**os.environ, "HOME": str(home)})
        assert run.returncode == 0, f"{line}\n{run.stdout}\n{run.stderr}"
        assert "Traceback" not in run.stderr, line
        printed[line] = run.stdout
    canvas_day = next(out for line, out in printed.items() if "--format canvas" in line and " day " in line)
    assert "refused: cy (corrupt notebook" in canvas_day and "missing: may" in canvas_day
    rows = (course.root / "grades-canvas.csv").read_text().splitlines()
    assert rows[0].split(",")[5:] == ["views", "views-closed-book"] and len(rows) == 2 + 3, \
        "ann, cy and may, once each"
    assert any(row.startswith("\"Lee, Cy\",3003,S-3,cy,Section A,") for row in rows)
    assert Path(course.root / "grades.csv").exists() and Path(course.root / "grades-moodle.csv").exists()

"""The instructor's day end to end, through the command line: release, collect an archive (with
files it must refuse), grade in the sandbox, re-grade (nothing changed: nothing regraded), feedback,
export, class report, and a manual grade in nbgrader's gradebook that the export then carries."""

from __future__ import annotations

import csv
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.cases import exercises
from autograder.pipeline.cli import main
from autograder.pipeline.collect import collect
from autograder.pipeline.confine import is_root
from autograder.pipeline.course import Course
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course

pytestmark = pytest.mark.nbgrader
CHAPTER = "views"


def notebook(course: Course, answers: dict[str, str]) -> str:
    nb = nbformat.read(course.release_notebook(CHAPTER), as_version=4)
    for cell in nb.cells:
        grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return nbformat.writes(nb)


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    course = copy_course(tmp_path_factory.mktemp("day"))
    assert main(["--root", str(course.root), "release", CHAPTER]) == 0
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    wrong = {g: next(w[1] for w in WRONG[g] if w[2] is not None) for g in exercises(CHAPTER)}
    archive = course.root / "downloads.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(f"ada/{CHAPTER}.ipynb", notebook(course, right))
        bundle.writestr(f"bob_{CHAPTER}.ipynb", notebook(course, wrong))
        bundle.writestr(f"cy/{CHAPTER}/{CHAPTER}.ipynb", notebook(course, {**right, "views-can-view": wrong[
            "views-can-view"]}))
        bundle.writestr(f"dee_{CHAPTER}.ipynb", "")
        bundle.writestr(f"eve_{CHAPTER}.ipynb", '{"cells": [')
        bundle.writestr("fay_homework.ipynb", notebook(course, right))
        bundle.writestr(f"gus_{CHAPTER}.ipynb", nbformat.writes(nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell("x = 1")])))
        bundle.writestr("notes.txt", "not a notebook")
    return course, archive


def test_collect_takes_usable_notebooks_and_reports_the_rest(day) -> None:
    course, archive = day
    students, problems = collect(course, CHAPTER, archive)
    assert students == ["ada", "bob", "cy"]
    reasons = {p.path: p.reason for p in problems}
    assert reasons[f"dee_{CHAPTER}.ipynb"] == "empty file"
    assert reasons[f"eve_{CHAPTER}.ipynb"].startswith("corrupt notebook")
    assert reasons["fay_homework.ipynb"].startswith("wrong name")
    assert reasons[f"gus_{CHAPTER}.ipynb"].startswith("wrong chapter")
    assert "notes.txt" in reasons
    assert (course.submitted / "ada" / CHAPTER / f"{CHAPTER}.ipynb").exists()


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_the_whole_day(day, capsys) -> None:
    course, archive = day
    root = ["--root", str(course.root)]
    assert main([*root, "day", CHAPTER, str(archive), "--workers", "2"]) == 0
    printed = capsys.readouterr()
    assert "graded 3 submission(s), 3 of them forked from the chapter's locked cells" in printed.out
    assert "ETA" in printed.err  # the progress bar

    with (course.root / "grades.csv").open() as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == CHAPTER}
    total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
    assert float(rows["ada"]["score"]) == total
    assert float(rows["bob"]["score"]) < float(rows["cy"]["score"]) < total

    feedback = (course.root / "feedback" / "bob" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert "BEGIN HIDDEN TESTS" not in feedback and "Your answer behaves as if" in feedback

    report = course.root / "reports" / CHAPTER
    assert (report / "index.html").exists() and (report / "views-can-view.png").stat().st_size > 1000
    with (report / "misconceptions.csv").open() as handle:
        frequent = [r for r in csv.DictReader(handle) if r["exercise"] == "views-can-view"]
    model = next(w[2] for w in WRONG["views-can-view"] if w[2] is not None)
    from answer_key.keys import key_of

    says = next(m.says for m in key_of(exercises(CHAPTER)["views-can-view"]).models if m.name == model)
    assert {r["misconception"]: int(r["students"]) for r in frequent}[says] == 2  # bob's and cy's can_view

    # Unchanged submissions are not graded again; a changed one is.
    assert main([*root, "grade", CHAPTER]) == 0
    assert "graded 0 submission(s), 0 of them forked from the chapter's locked cells; 3 unchanged" \
        in capsys.readouterr().out
    path = course.submitted / "bob" / CHAPTER / f"{CHAPTER}.ipynb"
    path.write_text(notebook(course, {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}))
    assert main([*root, "grade", CHAPTER, "--no-prefix"]) == 0  # from the top: graded the same
    assert "graded 1 submission(s), 0 of them forked from the chapter's locked cells; 2 unchanged" \
        in capsys.readouterr().out
    path.write_text(notebook(course, {g: RIGHT[g][-1][1] for g in exercises(CHAPTER)}))
    assert main([*root, "grade", CHAPTER, "--nbgrader-recording"]) == 0  # nbgrader's own converter records it
    assert "graded 1 submission(s), 1 of them forked from the chapter's locked cells; 2 unchanged" \
        in capsys.readouterr().out

    # Manual grading in nbgrader's gradebook (what formgrader does) reaches the export.
    with Gradebook(course.gradebook_url) as gradebook:
        grade = gradebook.find_grade("views-can-view-tests", CHAPTER, CHAPTER, "cy")
        assert grade.auto_score < grade.max_score  # the passing cases' points, if any
        grade.manual_score = grade.max_score
        hidden = gradebook.find_grade("views-can-view-tests-hidden", CHAPTER, CHAPTER, "cy")
        missing = hidden.max_score - hidden.score
        gradebook.db.commit()
    assert main([*root, "export"]) == 0
    with (course.root / "grades.csv").open() as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == CHAPTER}
    assert 0 < missing and float(rows["cy"]["score"]) == total - missing
    assert float(rows["bob"]["score"]) == total


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_a_killed_grading_run_is_finished_by_running_it_again(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from autograder.pipeline.grade import scores
    from autograder.pipeline.sandboxed import grade_chapter
    from tests.submissions import submit

    course = copy_course(tmp_path / "course")
    assert main(["--root", str(course.root), "release", CHAPTER]) == 0
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    for n in range(4):
        submit(course, CHAPTER, f"s{n}", right)
    state = course.autograded / f".{CHAPTER}-graded.json"
    run = subprocess.Popen([sys.executable, "-m", "autograder.pipeline.cli", "--root", str(course.root), "grade",
                            CHAPTER, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (state.exists() and state.read_text().count('"s') >= 1):
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait(timeout=30)
    recorded = state.read_text().count('"s')
    assert 1 <= recorded < 4, "the run was to be killed part-way"

    outcome = grade_chapter(course, CHAPTER, workers=1, progress=False)
    assert len(outcome.skipped) == recorded and len(outcome.graded) == 4 - recorded
    total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
    assert {s: sum(v.values()) for s, v in scores(course, CHAPTER).items()} == {f"s{n}": total for n in range(4)}

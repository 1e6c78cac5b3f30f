"""The instructor's day end to end, through the command line: release, collect a Canvas download
(with files it must refuse or drop), grade in the sandbox, re-grade (nothing changed: nothing
regraded), feedback, export (every row matched as Canvas's import matches), class report, and a
manual grade in nbgrader's gradebook that the export then carries. Then a Moodle download through
the same day, and every other route to a grade (formgrader's Autograde button, `nbgrader
autograde`) on the graded class: none changes a score the course computed without saying so."""

from __future__ import annotations

import csv
import hashlib
import json
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.engine.cases import exercises
from autograder.pipeline.cli import main
from autograder.pipeline.course import Course
from autograder.pipeline.intake.collect import UNTOUCHED, collect
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog import views_closed_book
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course
from tests.lms_imports import CanvasUser, MoodleUser, canvas_match, moodle_match

pytestmark = pytest.mark.nbgrader
CHAPTER = "views"
COMPANION = "views-closed-book"
NBFORMAT_3 = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": []}]})
# Canvas's gradebook export: a "Points Possible" row, then one row per learner.
CANVAS_ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,views (123)
    Points Possible,,,,,66
"Lovelace, Ada",12345,S-1,ada,Section A,
"Smith, Bob",12346,S-2,bob,Section A,
"Young, Cy",12347,S-3,cy,Section A,
"Dee, Dee",12348,S-4,dee,Section A,
"Ever, Eve",12349,S-5,eve,Section A,
"""
CANVAS_USERS = [CanvasUser(12345, "Ada Lovelace", "Lovelace, Ada", "S-1", "ada"),
                CanvasUser(12346, "Bob Smith", "Smith, Bob", "S-2", "bob"),
                CanvasUser(12347, "Cy Young", "Young, Cy", "S-3", "cy"),
                CanvasUser(12348, "Dee Dee", "Dee, Dee", "S-4", "dee"),
                CanvasUser(12349, "Eve Ever", "Ever, Eve", "S-5", "eve")]


def notebook(course: Course, answers: dict[str, str], chapter: str = CHAPTER) -> str:
    nb = nbformat.read(course.release_notebook(chapter), as_version=4)
    for cell in nb.cells:
        grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return nbformat.writes(nb)


def total(chapter: str) -> float:
    return sum(ex.points(False) + ex.points(True) for ex in exercises(chapter).values())


def _csv(path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    course = copy_course(tmp_path_factory.mktemp("day"))
    assert main(["--root", str(course.root), "release", CHAPTER, COMPANION]) == 0
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    wrong = {g: next(w[1] for w in WRONG[g] if w[2] is not None) for g in exercises(CHAPTER)}
    # Canvas's "Download Submissions", named as lib/content_zipper.rb names the entries.
    archive = course.root / "views submissions.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(f"lovelaceada_12345_7000001_{CHAPTER}.ipynb", notebook(course, right))
        bundle.writestr(f"smithbob_12346_7000002_{CHAPTER}.ipynb", notebook(course, right))  # resubmitted:
        bundle.writestr(f"smithbob_12346_7000009_{CHAPTER}-1.ipynb", notebook(course, wrong))
        mixed = {**right, "views-can-view": wrong["views-can-view"]}
        bundle.writestr(f"youngcy_LATE_12347_7000003_{CHAPTER}.ipynb", notebook(course, mixed))
        bundle.writestr(f"deedee_12348_7000004_{CHAPTER}.ipynb", notebook(course, {}))  # the release, untouched
        bundle.writestr(f"evereve_12349_7000005_{CHAPTER}.ipynb", NBFORMAT_3)
        bundle.writestr("evereve_12349_text.html", "<p>my notebook would not upload</p>")
    (course.root / "canvas-roster.csv").write_text(CANVAS_ROSTER)
    return course, archive


def test_collect_takes_usable_notebooks_and_reports_the_rest(tmp_path, day) -> None:
    """nbgrader's own layout and plain archives, and a refusal that lists every accepted form."""
    course, _ = day
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    archive = tmp_path / "downloads.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(f"ada/{CHAPTER}.ipynb", notebook(course, right))
        bundle.writestr(f"bob_{CHAPTER}.ipynb", notebook(course, right))
        bundle.writestr(f"cy/{CHAPTER}/{CHAPTER}.ipynb", notebook(course, right))
        bundle.writestr(f"dee_{CHAPTER}.ipynb", "")
        bundle.writestr(f"eve_{CHAPTER}.ipynb", '{"cells": [')
        bundle.writestr("fay_homework.ipynb", notebook(course, right))
        bundle.writestr(f"gus_{CHAPTER}.ipynb", nbformat.writes(nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell("x = 1")])))
        bundle.writestr("notes.txt", "not a notebook")
    other = Course(tmp_path / "course")  # collect reads only the student edition
    (other.release / CHAPTER).mkdir(parents=True)
    (other.release / CHAPTER / f"{CHAPTER}.ipynb").write_bytes(course.release_notebook(CHAPTER).read_bytes())
    students, problems = collect(other, CHAPTER, archive)
    assert students == ["ada", "bob", "cy"]
    reasons = {p.path: p.reason for p in problems}
    assert reasons[f"dee_{CHAPTER}.ipynb"] == "empty file"
    assert reasons[f"eve_{CHAPTER}.ipynb"].startswith("corrupt notebook")
    assert reasons[f"gus_{CHAPTER}.ipynb"].startswith("wrong chapter")
    assert "notes.txt" in reasons
    assert (other.submitted / "ada" / CHAPTER / f"{CHAPTER}.ipynb").exists()
    refusal = reasons["fay_homework.ipynb"]
    for form in (f"<student>/{CHAPTER}.ipynb", f"<student>/{CHAPTER}/{CHAPTER}.ipynb", f"<student>_{CHAPTER}.ipynb",
                 f"<student>-{CHAPTER}.ipynb", f"<name>[_LATE]_<user id>_<file id>_{CHAPTER}[-<n>].ipynb",
                 f"<full name>_<participant id>_assignsubmission_file_/{CHAPTER}[ (<n>)].ipynb",
                 f"<full name>_<participant id>_assignsubmission_file_{CHAPTER}[ (<n>)].ipynb"):
        assert form in refusal, form


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_the_whole_day(day, capsys) -> None:
    course, archive = day
    root = ["--root", str(course.root)]
    assert main([*root, "day", CHAPTER, str(archive), "--roster", str(course.root / "canvas-roster.csv"),
                 "--format", "canvas", "--workers", "2"]) == 0
    printed = capsys.readouterr()
    assert "graded 4 submission(s), 4 of them forked from the chapter's locked cells" in printed.out
    assert "ETA" in printed.err  # the progress bars

    # Collected as Canvas names its files: the latest of bob's two, an untouched one said so, the
    # nbformat 3 notebook and the text entry refused with their reasons.
    rows = {(r["file"], r["action"]): r for r in csv.DictReader((course.submitted / f"{CHAPTER}-collect.csv").open())}
    assert rows[(f"smithbob_12346_7000002_{CHAPTER}.ipynb", "dropped")]["reason"] == \
        f"an earlier submission of bob: kept the later smithbob_12346_7000009_{CHAPTER}-1.ipynb"
    assert rows[(f"deedee_12348_7000004_{CHAPTER}.ipynb", "collected")]["reason"] == UNTOUCHED
    assert rows[(f"youngcy_LATE_12347_7000003_{CHAPTER}.ipynb", "collected")]["reason"] == "Canvas marked it late"
    assert rows[(f"evereve_12349_7000005_{CHAPTER}.ipynb", "refused")]["reason"].startswith("an nbformat 3 notebook")
    assert ("evereve_12349_text.html", "refused") in rows
    with (course.autograded / f"{CHAPTER}-flags.csv").open() as handle:
        assert {(r["student"], r["reason"]) for r in csv.DictReader(handle)} >= {("dee", UNTOUCHED)}

    # The export: every row is a learner Canvas's import matches, by ID; eve, refused, keeps her row
    # with an empty grade (the import changes nothing for her), and the day's summary says why.
    exported = _csv(course.root / "grades-canvas.csv")
    assert exported[0][5:] == [CHAPTER], "only the chapter handed in, not the released companion"
    matched = canvas_match(exported, CANVAS_USERS)
    assert sorted(matched.values()) == [12345, 12346, 12347, 12348, 12349]
    rows = {row[3]: row for row in exported[2:]}
    assert rows["eve"][5] == "" and (rows["ada"][2], rows["ada"][4]) == ("S-1", "Section A")
    score = {student: float(row[5]) for student, row in rows.items() if row[5]}
    assert score["ada"] == total(CHAPTER) and score["dee"] == 0
    assert score["bob"] < score["cy"] < total(CHAPTER)
    assert "views: 5 learner(s): 3 graded, 1 untouched, 1 refused" in printed.out
    assert "refused: eve (an nbformat 3 notebook" in printed.out and "untouched: dee" in printed.out

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

    # The similarity report, for the instructor: ada and cy handed in the same shares_storage, bob
    # and cy the same wrong can_view; dee's untouched notebook is not compared.
    assert "similarity report: open" in printed.out and "never verdicts" in printed.out
    with (report / "similarity" / "pairs.csv").open() as handle:
        alike = {(r["exercise"], r["learner"], r["other"]) for r in csv.DictReader(handle) if r["stands_out"] == "yes"}
    assert {("views-shares-storage", "ada", "cy"), ("views-can-view", "bob", "cy")} <= alike
    assert not [p for p in alike if "dee" in p]

    # Unchanged submissions are not graded again; a changed one is.
    assert main([*root, "grade", CHAPTER]) == 0
    assert "graded 0 submission(s), 0 of them forked from the chapter's locked cells; 4 unchanged" \
        in capsys.readouterr().out
    path = course.submitted / "bob" / CHAPTER / f"{CHAPTER}.ipynb"
    path.write_text(notebook(course, {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}))
    assert main([*root, "grade", CHAPTER, "--no-prefix"]) == 0  # from the top: graded the same
    assert "graded 1 submission(s), 0 of them forked from the chapter's locked cells; 3 unchanged" \
        in capsys.readouterr().out
    path.write_text(notebook(course, {g: RIGHT[g][-1][1] for g in exercises(CHAPTER)}))
    assert main([*root, "grade", CHAPTER, "--nbgrader-recording"]) == 0  # nbgrader's own converter records it
    assert "graded 1 submission(s), 1 of them forked from the chapter's locked cells; 3 unchanged" \
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
    assert 0 < missing and float(rows["cy"]["score"]) == total(CHAPTER) - missing
    assert float(rows["bob"]["score"]) == total(CHAPTER)
    assert main([*root, "grade", CHAPTER]) == 0, "a manual score is not another route's automatic one"
    assert "graded 0 submission(s)" in capsys.readouterr().out


# Code and output blocks whose text runs past their box, and anything wider than the window: a
# counterexample cut at the edge.
CUT = """() => [...document.querySelectorAll('pre, div.output_area, div.input_area, table, img')]
    .filter((e) => e.getBoundingClientRect().width > 0)
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 3).map((e) => e.tagName + ': ' + e.textContent.trim().slice(0, 80))"""


@pytest.mark.browser
@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_feedback_and_report_pages_work_offline_pass_axe_and_fit_the_page(day, browser) -> None:
    """bob's feedback (counterexamples, the chapter's mathematics) and the class report, served on
    loopback: nothing requested elsewhere, MathJax from the course's copy, no WCAG 2.1 AA violation,
    and no counterexample cut at the edge, on a desktop and on a phone."""
    from tests.browser import serve, watched_page
    from tests.pipeline.site.test_accessibility import axe_violations

    course, _ = day
    feedback = f"feedback/bob/{CHAPTER}/{CHAPTER}.html"
    report = f"reports/{CHAPTER}/index.html"
    similar = f"reports/{CHAPTER}/similarity/index.html"
    assert (course.root / feedback).exists() and (course.root / similar).exists(), "the whole day wrote them"
    problems = []
    with serve(course.root) as url:
        for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
            context = browser.new_context(viewport=viewport)
            try:
                for name in (feedback, report, similar):
                    page, watch = watched_page(context)
                    requested = []
                    page.on("request", lambda request, requested=requested: requested.append(request.url))
                    page.goto(f"{url}/{name}", wait_until="load")
                    page.wait_for_load_state("networkidle")
                    where = f"{name} at {viewport['width']}px"
                    if name == feedback:
                        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
                        page.evaluate("MathJax.startup.promise")
                        assert page.evaluate("MathJax.version").startswith("3.")
                        assert page.locator("mjx-container").count() > 0, "the chapter's mathematics is typeset"
                        assert any(u.startswith(f"{url}/feedback/_vendor/mathjax/") for u in requested)
                        summary = page.locator("#toc").inner_text()
                        assert "views-can-view: hidden test" in summary and "Test cell" not in summary
                        assert "✗" in page.locator("body").inner_text(), "the page shows counterexamples"
                    elif name == report:
                        learners = page.locator("#learners + table tbody tr").all_inner_texts()
                        assert sorted(row.split()[0] for row in learners) == ["ada", "bob", "cy", "dee", "eve"]
                    problems += [f"{where}: {p}" for p in watch.problems]
                    problems += [f"{where}: axe: {v}" for v in axe_violations(page)]
                    problems += [f"{where}: cut: {c}" for c in page.evaluate(CUT)]
                    if page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth + 1"):
                        problems.append(f"{where}: the page scrolls sideways")
                    page.close()
            finally:
                context.close()
    assert problems == []


# Moodle's grading worksheet ("Download grading worksheet"): Identifier, Full name, the identity
# fields the site shows (here Email address and ID number), then the grading columns.
MOODLE_ROSTER = """Identifier,Full name,Email address,ID number,Status,Grade,Maximum grade,Grade can be changed,\
Last modified (submission),Last modified (grade),Feedback comments
Participant 5101,Ada Lovelace,ada@example.edu,U-1,Submitted for grading,,12.00,Yes,,,
Participant 5102,Bob Smith,Bob.Smith@Example.edu,U-2,Submitted for grading,,12.00,Yes,,,
Participant 5103,Cy Young,cy@example.edu,U-3,Submitted for grading,,12.00,Yes,,,
"""
MOODLE_USERS = [MoodleUser(21, "ada", "ada@example.edu", "U-1"), MoodleUser(22, "bsmith", "bob.smith@example.edu",
                                                                          "U-2"),
                MoodleUser(23, "cyoung", "cy@example.edu", "U-3"), MoodleUser(24, "dan", "dan@example.edu", "U-4")]


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_a_moodle_download_goes_through_the_day(day, capsys) -> None:
    """Moodle's "Download all submissions" (mod/assign/locallib.php): a folder per learner and plugin,
    a file uploaded twice renamed ``<stem> (1)``, the online text beside the files."""
    course, _ = day
    right = {g: views_closed_book.RIGHT[g][0][1] for g in exercises(COMPANION)}
    wrong = {g: views_closed_book.WRONG[g][0][1] for g in exercises(COMPANION)}
    archive = course.root / "views-closed-book-1234.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        ada = "Ada Lovelace_5101_assignsubmission_file_"
        bundle.writestr(zipfile.ZipInfo(f"{ada}/{COMPANION}.ipynb", (2026, 3, 1, 10, 0, 0)), notebook(
            course, wrong, COMPANION))
        bundle.writestr(zipfile.ZipInfo(f"{ada}/{COMPANION} (1).ipynb", (2026, 3, 1, 11, 0, 0)), notebook(
            course, right, COMPANION))
        bundle.writestr("Ada Lovelace_5101_assignsubmission_onlinetext_/onlinetext.html", "<p>done</p>")
        bundle.writestr(f"Bob Smith_5102_assignsubmission_file_/{COMPANION}.ipynb", notebook(course, wrong, COMPANION))
        bundle.writestr(f"Cy Young_5103_assignsubmission_file_{COMPANION}.ipynb", notebook(course, {}, COMPANION))
    roster = course.root / "grading-worksheet.csv"
    roster.write_text(MOODLE_ROSTER)
    # Put in submitted/ by another route (nbgrader's exchange, a copy by hand): an nbformat 3
    # notebook, one whose third cell is not an object, and a right one whose answer cell's grade id
    # was mistyped (a number): each is read as `grade` reads untrusted input.
    broken = json.loads(notebook(course, right, COMPANION))
    answer = next(c for c in broken["cells"] if (c["metadata"].get("nbgrader") or {}).get("solution"))
    answer["metadata"]["nbgrader"]["grade_id"] = 7
    for student, text in (("zed", NBFORMAT_3), ("yan", json.dumps({**broken, "cells": [{}, {}, 3]})),
                          ("xi", json.dumps(broken))):
        path = course.submitted / student / COMPANION / f"{COMPANION}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(text)
    root = ["--root", str(course.root)]
    assert main([*root, "day", COMPANION, str(archive), "--roster", str(roster), "--format", "moodle",
                 "--match", "email", "--workers", "2"]) == 0
    printed = capsys.readouterr().out
    assert "graded 4 submission(s)" in printed and f"kept the later {ada}/{COMPANION} (1).ipynb" in printed
    flags: dict[str, list[str]] = {}
    with (course.autograded / f"{COMPANION}-flags.csv").open() as handle:
        for row in csv.DictReader(handle):
            flags.setdefault(row["student"], []).append(row["reason"])
    assert flags["zed"] == ["not graded: an nbformat 3 notebook (saved by IPython before 2015, its cells in "
                            "'worksheets'): the course grades nbformat 4; open it in JupyterLab and save it again"]
    assert flags["yan"] == ["not graded: corrupt notebook: not a readable notebook (cell 3 is a number, not an object)"]
    assert any("lost or changed its grade id; recognised by its cell id" in f for f in flags["xi"])
    from autograder.pipeline.gradebook.ledger import Ledger

    ledger = Ledger.of(course, COMPANION)  # refused with their reasons: not read again while unchanged
    assert [reason for _, reason in ledger.flags("zed")] == flags["zed"] and "yan" in ledger.entries
    from autograder.pipeline.grading.grade import scores

    assert sum(scores(course, COMPANION)["xi"].values()) == total(COMPANION)

    exported = _csv(course.root / "grades-moodle.csv")
    header = exported[0]
    assert [r[2] for r in exported[1:]] == ["ada@example.edu", "bob.smith@example.edu", "cy@example.edu"], \
        "learners of the Canvas day have no email: left out, as Moodle's import would stop at them"
    matched = moodle_match(exported, "Email address", "useremail", MOODLE_USERS)
    column = header.index(f"{COMPANION} ({total(COMPANION):g} points)")
    score = {matched[i]: float(row[column]) for i, row in enumerate(exported[1:], start=1)}
    assert score[21] == total(COMPANION) > score[22] and score[23] == 0
    assert moodle_match(exported, "ID number", "useridnumber", MOODLE_USERS) == matched


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_no_route_changes_a_grade_the_course_computed(day, capsys) -> None:
    """formgrader's Autograde button (its HTTP API, on loopback) and `nbgrader autograde` refuse and
    name the command; a score another route did change is graded again and reported."""
    from autograder.pipeline.grading.grade import NBGRADER_EXECUTES, scores
    from tests.formgrader import Formgrader

    course, _ = day
    root = ["--root", str(course.root)]
    before = scores(course, COMPANION)
    files = {s: hashlib.sha256((course.autograded / s / COMPANION / f"{COMPANION}.ipynb").read_bytes()).digest()
             for s in before}
    student = "bob.smith@example.edu"  # the Moodle day's bob, by his email
    assert 0 < sum(before[student].values()) < total(COMPANION)

    with Formgrader(course.root) as formgrader:
        assert formgrader.get(f"/formgrader/api/submission/{COMPANION}/{student}")["autograded"]
        answer = formgrader.post(f"/formgrader/api/submission/{COMPANION}/{student}/autograde")
    assert answer["success"] is False
    assert f"autograd-state grade {COMPANION} --student {student} --force" in answer["log"]
    by_hand = course.nbgrader("autograde", COMPANION, "--force", check=False)
    assert by_hand.returncode == 1 and f"Run `autograd-state grade {COMPANION}`" in by_hand.stderr
    assert scores(course, COMPANION) == before
    assert files == {s: hashlib.sha256((course.autograded / s / COMPANION / f"{COMPANION}.ipynb").read_bytes()).digest()
                     for s in before}
    assert main([*root, "grade", COMPANION]) == 0
    assert "graded 0 submission(s)" in capsys.readouterr().out

    # Forced past the guard, nbgrader's route scores bob's partly right cells 0 (no partial credit)...
    course.nbgrader("autograde", COMPANION, "--force", f"--student={student}", *NBGRADER_EXECUTES)
    assert sum(scores(course, COMPANION)[student].values()) < sum(before[student].values())
    # ...and the next `grade` sees it, grades bob again and says so.
    assert main([*root, "grade", COMPANION]) == 0
    assert "graded again 1 submission(s) whose gradebook scores or autograded notebook had changed since " \
        "`grade` recorded them" in capsys.readouterr().out
    assert scores(course, COMPANION)[student] == before[student]


@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_a_killed_grading_run_is_finished_by_running_it_again(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from autograder.pipeline.grading.grade import scores
    from autograder.pipeline.grading.sandboxed import grade_chapter
    from tests.submissions import submit

    course = copy_course(tmp_path / "course")
    assert main(["--root", str(course.root), "release", CHAPTER]) == 0
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    for n in range(4):
        submit(course, CHAPTER, f"s{n}", right)
    state = course.autograded / f".{CHAPTER}-graded.json"

    def graded() -> int:
        try:
            return len(json.loads(state.read_text()))
        except (OSError, ValueError):
            return 0

    run = subprocess.Popen([sys.executable, "-m", "autograder.pipeline.cli", "--root", str(course.root), "grade",
                            CHAPTER, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and graded() < 1:
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait(timeout=30)
    recorded = graded()
    assert 1 <= recorded < 4, "the run was to be killed part-way"

    outcome = grade_chapter(course, CHAPTER, workers=1, progress=False)
    assert len(outcome.skipped) == recorded and len(outcome.graded) == 4 - recorded
    assert {s: sum(v.values()) for s, v in scores(course, CHAPTER).items()} == {f"s{n}": total(CHAPTER)
                                                                               for n in range(4)}

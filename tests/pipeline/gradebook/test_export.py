"""``autograd-state export --format canvas|moodle|csv``: each file read back as its LMS reads it,
manual grades included, and no cell a spreadsheet would evaluate; every learner on the roll a row,
those without a grade with an empty cell and named; only the chapters being graded, with the
roster's SIS User ID and Section."""

from __future__ import annotations

import csv
import zipfile

import pytest
from nbgrader.api import Gradebook

from autograder.pipeline.cli import main
from autograder.pipeline.gradebook.export import FORMULA_STARTS, inert
from autograder.pipeline.intake.collect import collect
from autograder.pipeline.intake.lms import read_roster
from tests.conftest import released_copy
from tests.lms_imports import CanvasUser, MoodleUser, canvas_match, moodle_match

pytestmark = pytest.mark.nbgrader
CHAPTERS = ["detach", "views"]  # columns by chapter name, as `course.chapters()` lists them; only views is handed in
# Canvas's gradebook export for three learners: ada (graded by hand below), dee (whose file is
# corrupt) and fay (who handed in nothing).
CANVAS_ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,views (123)
    Points Possible,,,,,66
"Lovelace, Ada",1001,S-1,ada,Section A,
"Dee, Dee",1004,S-4,dee,Section B,
"Fay, Fay",1005,S-5,fay,Section B,
"""
# Names as a class roster can hold them: one is a formula, one would dial out, one is plain.
STUDENTS = {
    "ada": {"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.edu", "lms_user_id": "1001"},
    "eve": {"first_name": "=HYPERLINK(\"http://evil.example\",\"x\")", "last_name": "+1-555",
            "email": "@SUM(A1:A9)", "lms_user_id": "1002"},
    "sam": {"first_name": None, "last_name": None, "email": None, "lms_user_id": None},
}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """Two chapters released; ada and eve submitted views, scored by hand as formgrader would; then a
    Canvas download of views with the roster: dee's file is corrupt, fay has none."""
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("export") / "course", CHAPTERS)
    with Gradebook(course.gradebook_url) as gradebook:
        for student, fields in STUDENTS.items():
            gradebook.update_or_create_student(student, **fields)
        for student, fraction in (("ada", 1.0), ("eve", 0.5)):
            submission = gradebook.add_submission("views", student)
            for grade in submission.notebooks[0].grades:
                grade.manual_score = grade.max_score * fraction
        gradebook.db.commit()
    download = course.root / "views.zip"
    with zipfile.ZipFile(download, "w") as bundle:
        bundle.writestr("deedee_1004_7000001_views.ipynb", '{"cells": [')
    students, problems = collect(course, "views", download, roster=read_roster(CANVAS_ROSTER))
    assert students == [] and [(p.student, p.action) for p in problems] == [("dee", "refused")]
    return course


def expected(course) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    with Gradebook(course.gradebook_url) as gradebook:
        points = {c: float(gradebook.find_assignment(c).max_score) for c in CHAPTERS}
        scores = {s: {"views": float(gradebook.find_submission("views", s).score)} for s in ("ada", "eve")}
    return points, scores


def _rows(path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def _no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), cell


def test_inert_cells() -> None:
    assert inert("=1+1") == "'=1+1" and inert("-2") == "'-2" and inert("\t=x") == "'\t=x"
    assert inert(12.5) == "12.5" and inert(3.0) == "3" and inert(None) == "" and inert("Ada") == "Ada"


def test_canvas_reads_identifiers_points_possible_and_the_chapters_being_graded(course, capsys) -> None:
    assert main(["--root", str(course.root), "export", "--format", "canvas"]) == 0
    printed = capsys.readouterr().out
    rows = _rows(course.root / "grades-canvas.csv")
    _no_formula(rows)
    header, possible, *learners = rows
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "views"], \
        "detach is released but nobody handed it in: no column, so the import creates no assignment"
    points, scores = expected(course)
    assert possible[0] == "Points Possible" and float(possible[5]) == points["views"]
    by_login = {row[3]: dict(zip(header, row, strict=True)) for row in learners}
    users = [CanvasUser(1001, "Ada Lovelace", "Lovelace, Ada", "S-1", "ada"),
             CanvasUser(1002, "Eve", "Eve", login="eve"), CanvasUser(1004, "Dee Dee", "Dee, Dee", "S-4", "dee"),
             CanvasUser(1005, "Fay Fay", "Fay, Fay", "S-5", "fay")]
    matched = {rows[i][3]: user for i, user in canvas_match(rows, users).items()}
    assert matched == {"ada": 1001, "eve": 1002, "dee": 1004, "fay": 1005, "sam": None}, \
        "by ID; sam has none, and Canvas knows no sam"
    assert sorted(by_login) == ["ada", "dee", "eve", "fay", "sam"], "every learner on the roll, once"
    assert by_login["ada"]["Student"] == "Lovelace, Ada" and by_login["ada"]["ID"] == "1001"
    assert (by_login["ada"]["SIS User ID"], by_login["ada"]["Section"]) == ("S-1", "Section A"), "from the roster"
    assert (by_login["fay"]["SIS User ID"], by_login["fay"]["Section"]) == ("S-5", "Section B")
    assert by_login["eve"]["Student"] == "'+1-555, =HYPERLINK(\"http://evil.example\",\"x\")"
    assert by_login["sam"]["Student"] == "sam"
    assert scores["ada"]["views"] == points["views"] > scores["eve"]["views"] > 0, "manual grades are exported"
    for student in ("ada", "eve"):
        assert float(by_login[student]["views"]) == scores[student]["views"]
    for student in ("dee", "fay", "sam"):
        assert by_login[student]["views"] == "", "no grade: blank, which Canvas's import leaves as it was"
    note = next(line for line in printed.splitlines() if "without a grade" in line)
    assert "views: 3 learner(s) without a grade" in note and "dee (refused (corrupt notebook" in note
    assert "fay (missing)" in note and "sam (missing)" in note


def test_the_chapters_named_are_exported_and_an_unknown_one_is_one_line(course, capsys) -> None:
    root = ["--root", str(course.root)]
    assert main([*root, "export", "--format", "canvas", "--assignment", "views", "--assignment", "detach"]) == 0
    header = _rows(course.root / "grades-canvas.csv")[0]
    assert header[5:] == CHAPTERS, "in the course's order"
    capsys.readouterr()
    assert main([*root, "export", "--assignment", "nope"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--assignment nope: not in the gradebook" in error and "release" in error


def test_moodle_reads_a_user_field_to_map_and_grade_columns_with_their_points(course) -> None:
    assert main(["--root", str(course.root), "export", "--format", "moodle", "--match", "username"]) == 0
    rows = _rows(course.root / "grades-moodle.csv")
    _no_formula(rows)
    header, *learners = rows
    points, scores = expected(course)
    assert header == ["First name", "Last name", "Username", "ID number", "Email address",
                      f"views ({points['views']:g} points)"]
    by_user = {row[2]: row for row in learners}
    assert set(by_user) == {*STUDENTS, "dee", "fay"}, "every row is a learner (Moodle has no points row)"
    assert by_user["eve"][:5] == ["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+1-555", "eve", "1002",
                                  "'@SUM(A1:A9)"]
    views = header.index(f"views ({points['views']:g} points)")
    assert float(by_user["eve"][views]) == scores["eve"]["views"] and by_user["sam"][views] == ""
    assert by_user["dee"][views] == "" and by_user["fay"][views] == ""
    emails = {s: STUDENTS.get(s, {}).get("email") or "" for s in by_user}
    users = [MoodleUser(i, s, emails[s]) for i, s in enumerate(sorted(by_user), start=7)]
    assert sorted(moodle_match(rows, "Username", "username", users).values()) == list(range(7, 12))


def test_moodle_leaves_out_and_names_the_learners_its_import_could_not_map(course, capsys) -> None:
    """Moodle abandons a whole import at a row whose identifier is blank: such rows are not written."""
    assert main(["--root", str(course.root), "export", "--format", "moodle"]) == 0  # mapped by email
    assert "3 learner(s) left out: no Email address" in capsys.readouterr().out
    rows = _rows(course.root / "grades-moodle.csv")
    assert [row[2] for row in rows[1:]] == ["ada", "eve"]
    users = [MoodleUser(1, "ada", "ADA@example.edu"), MoodleUser(2, "eve", "@SUM(A1:A9)")]
    with pytest.raises(AssertionError, match="matches 0 users"):  # the formula guard's apostrophe is kept
        moodle_match(rows, "Email address", "useremail", users)
    assert moodle_match(rows[:2], "Email address", "useremail", users) == {1: 1}, "matched without case"
    assert main(["--root", str(course.root), "export", "--format", "moodle", "--match", "idnumber"]) == 0
    assert [row[3] for row in _rows(course.root / "grades-moodle.csv")[1:]] == ["1001", "1004", "1002", "1005"]


def test_nbgraders_columns_are_kept_quoted_and_inert_with_each_learners_status(course) -> None:
    assert main(["--root", str(course.root), "export", "--assignment", "views"]) == 0
    rows = _rows(course.root / "grades.csv")
    _no_formula(rows)
    table = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    _, scores = expected(course)
    eve = next(r for r in table if r["student_id"] == "eve" and r["assignment"] == "views")
    assert float(eve["score"]) == scores["eve"]["views"] and eve["first_name"].startswith("'=")
    status = {r["student_id"]: r["status"] for r in table}
    assert status.pop("dee").startswith("refused (corrupt notebook")
    assert status == {"ada": "graded", "eve": "graded", "sam": "missing", "fay": "missing"}
    sam = next(r for r in table if r["student_id"] == "sam")
    assert float(sam["score"]) == 0 and float(sam["max_score"]) == expected(course)[0]["views"]

    # Exporting another chapter keeps the rows of this one: the file is a record.
    assert main(["--root", str(course.root), "export", "--assignment", "detach"]) == 0
    again = _rows(course.root / "grades.csv")
    assert [r for r in again if r[0] == "views"] == [r for r in rows if r[0] == "views"]
    assert sorted(r[3] for r in again if r[0] == "detach") == ["ada", "dee", "eve", "fay", "sam"]

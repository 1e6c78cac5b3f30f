"""The gradebook as CSV for where instructors keep grades: nbgrader's own layout, Canvas, Moodle.

Scores are read from nbgrader's gradebook, manual grades from formgrader included (a manual score
wins over the automatic one, as in nbgrader's own export). One column per chapter:

- ``canvas``: the layout Canvas's gradebook import reads: ``Student`` (``Last, First``), ``ID``
  (the Canvas user id, nbgrader's ``lms_user_id``), ``SIS User ID``, ``SIS Login ID`` (nbgrader's
  student id), ``Section``, then one column per chapter; the second row is ``Points Possible``.
  A chapter column that matches no Canvas assignment creates one with those points.
- ``moodle``: the layout Moodle's CSV grade import maps: ``First name``, ``Last name``,
  ``Username`` (nbgrader's student id), ``ID number`` (``lms_user_id``), ``Email address``, then
  one column per chapter, named with its points (Moodle rows are learners only, so the points
  possible are in the header).
- ``csv``: the columns of nbgrader's ``grades.csv`` (``assignment``, ``duedate``, ``timestamp``,
  ``student_id``, names, ``email``, ``raw_score``, ``late_submission_penalty``, ``score``,
  ``max_score``; a chapter not submitted scores 0), quoted as CSV requires (nbgrader's own
  export joins fields with commas unquoted, so a name with a comma shifts the columns).

Scores are after nbgrader's late-submission penalty, as in its ``score`` column.

No cell of any of them can be read as a spreadsheet formula: text that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is written with a leading apostrophe, which spreadsheets
show as text and LMS imports ignore in names.
"""

from __future__ import annotations

import csv
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from autograder.pipeline.course import Course

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "|")
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTITY = ["First name", "Last name", "Username", "ID number", "Email address"]
NBGRADER_COLUMNS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
                    "raw_score", "late_submission_penalty", "score", "max_score"]
DEFAULT_NAMES = {"csv": "grades.csv", "canvas": "grades-canvas.csv", "moodle": "grades-moodle.csv"}


def inert(value: object) -> str:
    """A cell's text that no spreadsheet evaluates (a number stays a number)."""
    if isinstance(value, int | float):
        return f"{value:g}"
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def export(course: Course, form: str, output: Path | None = None, db: str | None = None) -> Path:
    """Write the gradebook in ``form`` (``csv``, ``canvas`` or ``moodle``); returns the file.

    Args:
        course: The course checkout.
        form: The layout.
        output: The file to write (default: :data:`DEFAULT_NAMES` in the course root).
        db: Gradebook URL (the course default when None).
    """
    db = db or course.gradebook_url
    path = output or course.root / DEFAULT_NAMES[form]
    chapters, points, students, earned = _table(course, db)
    if form == "csv":
        rows = [NBGRADER_COLUMNS]
        for chapter in chapters:
            for student in students:
                raw, penalty, timestamp = earned[student.id].get(chapter, (0.0, 0.0, ""))
                rows.append([chapter, points[chapter][1], timestamp, student.id, student.last_name,
                             student.first_name, student.email, raw, penalty, max(0.0, raw - penalty),
                             points[chapter][0]])
    elif form == "canvas":
        rows = [[*CANVAS_IDENTITY, *chapters],
                ["Points Possible", "", "", "", "", *(points[c][0] for c in chapters)]]
        for student in students:
            name = ", ".join(p for p in (student.last_name, student.first_name) if p) or student.id
            rows.append([name, student.lms_user_id or "", "", student.id, "",
                         *(_score(earned[student.id], c) for c in chapters)])
    elif form == "moodle":
        rows = [[*MOODLE_IDENTITY, *(f"{c} ({points[c][0]:g} points)" for c in chapters)]]
        for student in students:
            rows.append([student.first_name or "", student.last_name or "", student.id, student.lms_user_id or "",
                         student.email or "", *(_score(earned[student.id], c) for c in chapters)])
    else:
        raise ValueError(f"unknown export format {form!r}: expected one of {sorted(DEFAULT_NAMES)}")
    _write(path, rows)
    return path


def _score(earned: dict[str, tuple[float, float, str]], chapter: str) -> float | str:
    """Points after the late penalty; blank when not submitted (no grade, which is not a 0)."""
    if chapter not in earned:
        return ""
    raw, penalty, _ = earned[chapter]
    return max(0.0, raw - penalty)


def _table(course: Course, db: str):
    """Chapters (by name, as :meth:`Course.chapters` lists them; others after), their points possible
    and due date, the students, and each one's ``(raw score, late penalty, timestamp)`` by chapter."""
    order = {name: i for i, name in enumerate(course.chapters())}
    with Gradebook(db) as gradebook:
        assignments = sorted(gradebook.assignments, key=lambda a: (order.get(a.name, len(order)), a.name))
        chapters = [a.name for a in assignments]
        points = {a.name: (float(a.max_score), a.duedate or "") for a in assignments}
        students = sorted(gradebook.students, key=lambda s: s.id)
        earned: dict[str, dict[str, tuple[float, float, str]]] = {}
        for student in students:
            earned[student.id] = {}
            for chapter in chapters:
                try:
                    submission = gradebook.find_submission(chapter, student.id)
                except MissingEntry:
                    continue
                earned[student.id][chapter] = (float(submission.score),
                                               float(submission.late_submission_penalty or 0.0),
                                               submission.timestamp or "")
        gradebook.db.expunge_all()  # keep the students' fields readable after the session closes
    return chapters, points, students, earned


def _write(path: Path, rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([inert(cell) for cell in row] for row in rows)

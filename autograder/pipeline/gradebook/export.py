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
  possible are in the header). Moodle's import (``grade/import/csv/classes/load_data.php``) maps
  every row through one column, the instructor's *Map from*, and abandons the whole import at the
  first row whose value is blank or matches no user; so a row without the identifier chosen
  (``match``: ``email``, ``idnumber`` or ``username``) is left out, and named in the notes.
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

from autograder.pipeline.course import Course
from autograder.pipeline.progress import Progress

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


MOODLE_MATCH = {"email": "Email address", "idnumber": "ID number", "username": "Username"}


def export(
    course: Course,
    form: str,
    output: Path | None = None,
    db: str | None = None,
    match: str = "email",
    notes: list[str] | None = None,
    progress: bool = False,
) -> Path:
    """Write the gradebook in ``form`` (``csv``, ``canvas`` or ``moodle``); returns the file.

    Args:
        course: The course checkout.
        form: The layout.
        output: The file to write (default: :data:`DEFAULT_NAMES` in the course root).
        db: Gradebook URL (the course default when None).
        match: Moodle: the user field the import will map from (:data:`MOODLE_MATCH`).
        notes: Receives what the instructor must know: rows left out, rows the LMS will not match.
        progress: Draw a progress bar on stderr.
    """
    if match not in MOODLE_MATCH:
        raise ValueError(f"unknown Moodle identifier {match!r}: expected one of {', '.join(MOODLE_MATCH)}")
    notes = [] if notes is None else notes
    db = db or course.gradebook_url
    path = output or course.root / DEFAULT_NAMES[form]
    chapters, points, students, earned = _table(course, db, progress)
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
        unmatched = [s.id for s in students if not s.lms_user_id]
        if unmatched:
            notes.append(f"{len(unmatched)} row(s) have no Canvas ID (collect a Canvas download, or "
                         f"`nbgrader db student add --lms-user-id`): Canvas matches them by SIS Login ID or name "
                         f"only: {', '.join(unmatched[:10])}{' …' if len(unmatched) > 10 else ''}")
    elif form == "moodle":
        rows = [[*MOODLE_IDENTITY, *(f"{c} ({points[c][0]:g} points)" for c in chapters)]]
        left_out = []
        for student in students:
            row = [student.first_name or "", student.last_name or "", student.id, student.lms_user_id or "",
                   student.email or "", *(_score(earned[student.id], c) for c in chapters)]
            if not row[MOODLE_IDENTITY.index(MOODLE_MATCH[match])]:
                left_out.append(student.id)
                continue
            rows.append(row)
        if left_out:
            notes.append(f"{len(left_out)} learner(s) left out: no {MOODLE_MATCH[match]}, which Moodle's import "
                         f"maps from (a blank one abandons the whole import; collect with --roster): "
                         f"{', '.join(left_out[:10])}{' …' if len(left_out) > 10 else ''}")
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


def _table(course: Course, db: str, progress: bool = False):
    """Chapters (by name, as :meth:`Course.chapters` lists them; others after), their points possible
    and due date, the students, and each one's ``(raw score, late penalty, timestamp)`` by chapter."""
    from nbgrader.api import Gradebook, MissingEntry

    order = {name: i for i, name in enumerate(course.chapters())}
    with Gradebook(db) as gradebook:
        assignments = sorted(gradebook.assignments, key=lambda a: (order.get(a.name, len(order)), a.name))
        chapters = [a.name for a in assignments]
        points = {a.name: (float(a.max_score), a.duedate or "") for a in assignments}
        students = sorted(gradebook.students, key=lambda s: s.id)
        earned: dict[str, dict[str, tuple[float, float, str]]] = {}
        bar = Progress(len(students), "learners exported") if progress else None
        for student in students:
            if bar:
                bar.step(student.id)
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

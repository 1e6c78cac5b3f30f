"""The gradebook as CSV for where instructors keep grades: nbgrader's own layout, Canvas, Moodle.

Scores are read from nbgrader's gradebook, manual grades from formgrader included (a manual score
wins over the automatic one, as in nbgrader's own export). The chapters exported are those named
(``assignments``), or else every chapter with a submission: one released but not handed in yet
is not exported, so an import never creates an assignment nobody is graded in. Every learner on
the class's roll (:mod:`autograder.pipeline.gradebook.roll`) is a row, with their standing:

- ``canvas``: the layout Canvas's gradebook import reads: ``Student`` (``Last, First``), ``ID``
  (the Canvas user id, nbgrader's ``lms_user_id``), ``SIS User ID``, ``SIS Login ID`` (nbgrader's
  student id), ``Section`` (the SIS User ID and Section as the roster gave them), then one column
  per chapter; the second row is ``Points Possible``. A chapter column that matches no Canvas
  assignment creates one with those points.
- ``moodle``: the layout Moodle's CSV grade import maps: ``First name``, ``Last name``,
  ``Username`` (the Moodle username the roster gave, else nbgrader's student id), ``ID number``
  (``lms_user_id``), ``Email address``, then one column per chapter, named with its points (Moodle
  rows are learners only, so the points possible are in the header). Moodle's import
  (``grade/import/csv/classes/load_data.php``) maps every row through one column, the instructor's
  *Map from*, and abandons the whole import at the first row whose value is blank or matches no
  user; so a row without the identifier chosen (``match``: ``email``, ``idnumber`` or
  ``username``) is left out, and named in the notes.
- ``csv``: the columns of nbgrader's ``grades.csv`` (``assignment``, ``duedate``, ``timestamp``,
  ``student_id``, names, ``email``, ``raw_score``, ``late_submission_penalty``, ``score``,
  ``max_score``; a chapter not submitted scores 0), then the learner's ``status`` in that chapter,
  quoted as CSV requires (nbgrader's own export joins fields with commas unquoted, so a name with a
  comma shifts the columns). The file is a record: the rows of the chapters exported are
  replaced, those of every other chapter it holds are kept.

In the LMS layouts, a learner graded (or whose notebook was untouched) has their score; one refused,
missing or not graded yet has an empty cell, which the LMS's import leaves as it was, and the notes
name them.

Scores are after nbgrader's late-submission penalty, as in its ``score`` column.

No cell of any of them can be read as a spreadsheet formula: text that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is written with a leading apostrophe, which spreadsheets
show as text and LMS imports ignore in names.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from autograder.pipeline.course import Course
from autograder.pipeline.gradebook.roll import SCORED, Standing, roll
from autograder.pipeline.intake.records import Learner, LearnerRecord
from autograder.pipeline.progress import Progress

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "|")
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTITY = ["First name", "Last name", "Username", "ID number", "Email address"]
NBGRADER_COLUMNS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
                    "raw_score", "late_submission_penalty", "score", "max_score", "status"]
DEFAULT_NAMES = {"csv": "grades.csv", "canvas": "grades-canvas.csv", "moodle": "grades-moodle.csv"}


def inert(value: object) -> str:
    """A cell's text that no spreadsheet evaluates (a number stays a number)."""
    if isinstance(value, int | float):
        return f"{value:g}"
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


MOODLE_MATCH = {"email": "Email address", "idnumber": "ID number", "username": "Username"}
NAMED = 10  # learners named in one note


class ExportError(ValueError):
    """What cannot be exported (an unknown layout, a chapter the gradebook does not hold); ``str()``
    says what to give instead."""


@dataclass(frozen=True)
class Row:
    """A learner as an export writes them: nbgrader's fields, the roster's, and per chapter their
    standing and ``(raw score, late penalty, timestamp)`` where the gradebook holds a submission."""

    student: str
    first_name: str
    last_name: str
    email: str
    lms_user_id: str
    roster: Learner
    standing: dict[str, Standing]
    earned: dict[str, tuple[float, float, str]]

    def score(self, chapter: str) -> float | str:
        """Points after the late penalty where the learner's standing carries a score; else empty (no
        grade, which is not a 0, and which an LMS's import leaves as it was)."""
        if chapter not in self.earned or self.standing[chapter].state not in SCORED:
            return ""
        raw, penalty, _ = self.earned[chapter]
        return max(0.0, raw - penalty)


def export(
    course: Course,
    form: str,
    output: Path | None = None,
    db: str | None = None,
    match: str = "email",
    notes: list[str] | None = None,
    progress: bool = False,
    assignments: list[str] | None = None,
) -> Path:
    """Write the gradebook in ``form`` (``csv``, ``canvas`` or ``moodle``); returns the file.

    Args:
        course: The course checkout.
        form: The layout.
        output: The file to write (default: :data:`DEFAULT_NAMES` in the course root).
        db: Gradebook URL (the course default when None).
        match: Moodle: the user field the import will map from (:data:`MOODLE_MATCH`).
        notes: Receives what the instructor must know: the chapters exported, the learners whose
            cells are empty and why, rows left out, rows the LMS will not match.
        progress: Draw a progress bar on stderr.
        assignments: The chapters to export (default: every chapter with a submission).

    Raises:
        ExportError: an unknown layout or Moodle identifier, or a chapter the gradebook does not hold.
    """
    if form not in DEFAULT_NAMES:
        raise ExportError(f"unknown export format {form!r}: expected one of {', '.join(sorted(DEFAULT_NAMES))}")
    if match not in MOODLE_MATCH:
        raise ExportError(f"unknown Moodle identifier {match!r}: expected one of {', '.join(MOODLE_MATCH)}")
    notes = [] if notes is None else notes
    db = db or course.gradebook_url
    path = output or course.root / DEFAULT_NAMES[form]
    chapters, points, rows = _table(course, db, assignments, progress)
    notes.append(f"chapters exported: {', '.join(chapters) or 'none (no chapter has a submission yet)'}")
    for chapter in chapters:
        unscored = [r for r in rows if r.standing[chapter].state not in SCORED]
        if unscored and form != "csv":
            named = "; ".join(f"{r.student} ({r.standing[chapter]})" for r in unscored[:NAMED])
            more = f"; … and {len(unscored) - NAMED} more" if len(unscored) > NAMED else ""
            notes.append(f"{chapter}: {len(unscored)} learner(s) without a grade, their cell left empty so the "
                         f"import changes nothing for them: {named}{more}")
    if form == "csv":
        table = [NBGRADER_COLUMNS]
        for chapter in chapters:
            for row in rows:
                raw, penalty, timestamp = row.earned.get(chapter, (0.0, 0.0, ""))
                table.append([chapter, points[chapter][1], timestamp, row.student, row.last_name, row.first_name,
                              row.email, raw, penalty, max(0.0, raw - penalty), points[chapter][0],
                              str(row.standing[chapter])])
        table += _kept_rows(path, set(chapters))
    elif form == "canvas":
        table = [[*CANVAS_IDENTITY, *chapters],
                 ["Points Possible", "", "", "", "", *(points[c][0] for c in chapters)]]
        for row in rows:
            name = ", ".join(p for p in (row.last_name, row.first_name) if p) or row.student
            table.append([name, row.lms_user_id, row.roster.sis_user_id, row.student, row.roster.section,
                          *(row.score(c) for c in chapters)])
        unmatched = [r.student for r in rows if not r.lms_user_id]
        if unmatched:
            notes.append(f"{len(unmatched)} row(s) have no Canvas ID (collect a Canvas download, or "
                         f"`nbgrader db student add --lms-user-id`): Canvas matches them by SIS Login ID or name "
                         f"only: {', '.join(unmatched[:NAMED])}{' …' if len(unmatched) > NAMED else ''}")
    else:
        table = [[*MOODLE_IDENTITY, *(f"{c} ({points[c][0]:g} points)" for c in chapters)]]
        left_out = []
        for row in rows:
            line = [row.first_name, row.last_name, row.roster.login or row.student, row.lms_user_id, row.email,
                    *(row.score(c) for c in chapters)]
            if not line[MOODLE_IDENTITY.index(MOODLE_MATCH[match])]:
                left_out.append(row.student)
                continue
            table.append(line)
        if left_out:
            notes.append(f"{len(left_out)} learner(s) left out: no {MOODLE_MATCH[match]}, which Moodle's import "
                         f"maps from (a blank one abandons the whole import; collect with --roster): "
                         f"{', '.join(left_out[:NAMED])}{' …' if len(left_out) > NAMED else ''}")
    _write(path, table)
    return path


def chapters_with_submissions(course: Course, gradebook_submitted: set[str]) -> list[str]:
    """The chapters some learner handed in: a submission in ``submitted/`` or the gradebook, or a
    file ``collect`` refused (``submitted/<chapter>-collect.csv``)."""
    found = set(gradebook_submitted)
    if course.submitted.is_dir():
        found |= {p.parent.name for p in course.submitted.glob("*/*/*.ipynb")
                  if not p.parts[-3].startswith(".") and p.stem == p.parent.name}
        found |= {p.name.removesuffix("-collect.csv") for p in course.submitted.glob("*-collect.csv")}
    return sorted(found)


def _table(course: Course, db: str, assignments: list[str] | None, progress: bool = False):
    """The chapters (by name, as :meth:`Course.chapters` lists them; others after), their points
    possible and due date, and a :class:`Row` per learner: each on the roll of any of them, and
    every learner the course knows even where no chapter is exported yet."""
    from nbgrader.api import Gradebook, MissingEntry

    order = {name: i for i, name in enumerate(course.chapters())}
    with Gradebook(db) as gradebook:
        held = {a.name: a for a in gradebook.assignments}
        if assignments:
            unknown = [a for a in dict.fromkeys(assignments) if a not in held]
            if unknown:
                raise ExportError(f"--assignment {', '.join(unknown)}: not in the gradebook (it holds "
                                  f"{', '.join(sorted(held)) or 'none'}); release a chapter before exporting it")
            names = list(dict.fromkeys(assignments))
        else:
            submitted = {a.name for a in held.values() if a.submissions}
            names = [c for c in chapters_with_submissions(course, submitted) if c in held]
        names.sort(key=lambda n: (order.get(n, len(order)), n))
        points = {n: (float(held[n].max_score), held[n].duedate or "") for n in names}
        standings = {n: roll(course, n, db) for n in names}
        roster = LearnerRecord.of(course.submitted).learners
        learners = sorted({*(s for n in names for s in standings[n]), *(s.id for s in gradebook.students), *roster})
        rows = []
        bar = Progress(len(learners), "learners exported") if progress else None
        for student in learners:
            if bar:
                bar.step(student)
            try:
                found = gradebook.find_student(student)
                fields = (found.first_name, found.last_name, found.email, found.lms_user_id)
            except MissingEntry:
                fields = (None, None, None, None)
            earned = {}
            for chapter in names:
                try:
                    submission = gradebook.find_submission(chapter, student)
                except MissingEntry:
                    continue
                earned[chapter] = (float(submission.score), float(submission.late_submission_penalty or 0.0),
                                   submission.timestamp or "")
            known = roster.get(student, Learner(student))
            first, last, email, lms_user_id = (value or "" for value in fields)
            rows.append(Row(student, first or known.first_name, last or known.last_name, email or known.email,
                            lms_user_id or known.lms_user_id, known,
                            {n: standings[n].get(student) or Standing(student, "missing") for n in names}, earned))
    return names, points, rows


def _kept_rows(path: Path, exported: set[str]) -> list[list[str]]:
    """The rows of an earlier ``grades.csv`` for chapters not exported now, as they were."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except FileNotFoundError:
        return []
    if not rows or rows[0][:1] != ["assignment"]:
        return []
    width = len(NBGRADER_COLUMNS)
    return [(row + [""] * width)[:width] for row in rows[1:] if row and row[0] not in exported]


def _write(path: Path, rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([inert(cell) for cell in row] for row in rows)
    os.replace(temporary, path)

"""Flags: what the grader records for an instructor to look at, and the submissions it grades.

A flag names a student's chapter, the grade id concerned (or none) and a reason an instructor
understands. Every grading path writes them to ``autograded/<chapter>-flags.csv``: the sandboxed
grader from its ledger (:meth:`~autograder.pipeline.gradebook.ledger.Ledger.write_flags`), so that
a run for one learner leaves every other learner's flags as they were.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.engine.gradeid import exercise_of
from autograder.pipeline.course import Course

if TYPE_CHECKING:
    from nbgrader.api import Gradebook

    from autograder.pipeline.intake.integrity import Tampering

NBGRADER_REFUSED = ("not graded: nbgrader refused the notebook even after its cells were matched to the chapter; "
                    "open it in formgrader or grade it by hand")
# nbgrader scores a notebook whose run it gave up on (its kernel died, a cell ran past the timeout)
# 0 everywhere and keeps no graded copy.
NBGRADER_COULD_NOT_RUN = ("not graded: nbgrader could not run the notebook to its end (the zeros it recorded "
                          "are no grade); grade it again, or by hand")


@dataclass(frozen=True)
class Flag:
    """A problem recorded for one student's chapter."""

    student: str
    chapter: str
    grade_id: str
    reason: str


def submissions(course: Course, chapter: str) -> list[tuple[str, Path]]:
    """``(student, notebook path)`` for every submission of a chapter."""
    found = sorted(course.submitted.glob(f"*/{chapter}/{chapter}.ipynb"))
    return [(path.parents[1].name, path) for path in found]


def zero_tampered(
    gradebook: Gradebook, test_ids: list[str], chapter: str, student: str, tampered: list[Tampering]
) -> list[Flag]:
    """Score every test cell of a tampered exercise 0 (a manual score, for review) and flag it."""
    from nbgrader.api import MissingEntry

    exercises = {t.exercise for t in tampered}
    if not exercises:
        return []
    for grade_id in (g for g in test_ids if exercise_of(g) in exercises):
        try:
            grade = gradebook.find_grade(grade_id, chapter, chapter, student)
        except MissingEntry:
            continue
        grade.manual_score = 0.0
        grade.needs_manual_grade = True
    gradebook.db.commit()
    return [Flag(student, chapter, t.grade_id, t.reason) for t in tampered]


def write_flags(path: Path, flags: list[Flag]) -> None:
    """Write flags as CSV (student, chapter, grade_id, reason), whole or not at all (a killed run
    leaves the previous file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "chapter", "grade_id", "reason"])
        writer.writerows([f.student, f.chapter, f.grade_id, explain(f.reason)] for f in flags)
    os.replace(temporary, path)


def explain(reason: str) -> str:
    """A flag's reason in the instructor's terms: nbgrader's own advice is never passed on bare.

    nbgrader answers any notebook it cannot validate with advice meant for the instructor's own
    files ("run nbgrader update ."); for a learner's submission that advice is wrong.
    """
    if "nbgrader update" in reason or "metadata format" in reason or "failed to validate" in reason:
        return NBGRADER_REFUSED + " (nbgrader found its cell metadata invalid)"
    return reason

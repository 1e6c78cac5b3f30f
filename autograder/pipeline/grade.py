"""Autograde submitted chapters with nbgrader, then zero and flag tampered exercises."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from autograder.pipeline.course import Course
from autograder.pipeline.integrity import Tampering, check_submission, exercise_of, test_cell_checksums


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


def autograde(course: Course, chapter: str, db: str | None = None) -> list[Flag]:
    """Grade every submission of a chapter; a broken one is flagged, never fatal.

    Runs ``nbgrader autograde`` (nbgrader executes each submission in a fresh kernel and writes
    the gradebook), then checks each submission's test cells against the student edition and
    sets every test cell of a tampered exercise to a manual score of 0, flagged for review.

    Returns:
        Every flag raised, also written to ``autograded/<chapter>-flags.csv``.
    """
    db = db or course.gradebook_url
    course.nbgrader("autograde", chapter, "--force", db=db, check=False)
    expected = test_cell_checksums(course.release_notebook(chapter))
    flags: list[Flag] = []
    with Gradebook(db) as gradebook:
        for student, path in submissions(course, chapter):
            try:
                tampered = check_submission(expected, path)
            except ValueError as err:
                flags.append(Flag(student, chapter, "", f"unreadable submission: {err}"))
                continue
            flags += _zero_tampered(gradebook, list(expected), chapter, student, tampered)
            try:
                gradebook.find_submission_notebook(chapter, chapter, student)
            except MissingEntry:
                flags.append(Flag(student, chapter, "", "not graded: nbgrader could not grade this submission"))
    _write_flags(course.autograded / f"{chapter}-flags.csv", flags)
    return flags


def _zero_tampered(
    gradebook: Gradebook, test_ids: list[str], chapter: str, student: str, tampered: list[Tampering]
) -> list[Flag]:
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


def _write_flags(path: Path, flags: list[Flag]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "chapter", "grade_id", "reason"])
        writer.writerows([f.student, f.chapter, f.grade_id, f.reason] for f in flags)


def scores(course: Course, chapter: str, db: str | None = None) -> dict[str, dict[str, float]]:
    """Score of every test cell, by student, as the gradebook holds it."""
    db = db or course.gradebook_url
    result: dict[str, dict[str, float]] = {}
    with Gradebook(db) as gradebook:
        for student, _ in submissions(course, chapter):
            try:
                notebook = gradebook.find_submission_notebook(chapter, chapter, student)
            except MissingEntry:
                continue
            result[student] = {grade.name: grade.score for grade in notebook.grades}
    return result

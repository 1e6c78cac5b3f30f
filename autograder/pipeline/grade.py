"""Autograde submitted chapters with nbgrader, then zero and flag tampered exercises."""

from __future__ import annotations

from nbgrader.api import Gradebook, MissingEntry

from autograder.pipeline.course import Course
from autograder.pipeline.flags import Flag, submissions, write_flags, zero_tampered
from autograder.pipeline.integrity import check_submission, test_cell_checksums


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
            flags += zero_tampered(gradebook, list(expected), chapter, student, tampered)
            try:
                gradebook.find_submission_notebook(chapter, chapter, student)
            except MissingEntry:
                flags.append(Flag(student, chapter, "", "not graded: nbgrader could not grade this submission"))
    write_flags(course.autograded / f"{chapter}-flags.csv", flags)
    return flags


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

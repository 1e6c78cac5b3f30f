"""Autograde submitted chapters with nbgrader, then zero and flag tampered exercises.

Before anything grades a submission, :func:`admitted` reads it within the limits of
:mod:`autograder.pipeline.intake.bounds` (a notebook placed in ``submitted/`` by nbgrader's exchange is
untrusted input too) and reconciles it with the student edition
(:mod:`autograder.pipeline.intake.reconcile`), so that nbgrader is given a notebook it can grade.
"""

from __future__ import annotations

import re
from pathlib import Path

from autograder.pipeline.course import Course, read_notebook
from autograder.pipeline.gradebook.flags import (
    NBGRADER_COULD_NOT_RUN,
    NBGRADER_REFUSED,
    Flag,
    submissions,
    write_flags,
    zero_tampered,
)
from autograder.pipeline.gradebook.ledger import shard_of
from autograder.pipeline.intake import reconcile
from autograder.pipeline.intake.bounds import Bounds, Refused, load
from autograder.pipeline.intake.collect import UNTOUCHED, untouched
from autograder.pipeline.intake.integrity import check_submission, test_cell_checksums

# Options that let `nbgrader autograde` run as nbgrader ships it, past autograder.pipeline.gradebook.guard.
NBGRADER_EXECUTES = ("--Autograde.exporter_class=nbconvert.exporters.NotebookExporter",)
# How nbgrader's log names a submission it gave up on, and its messages.
_GAVE_UP = re.compile(r"There was an error processing assignment: .*[/\\]submitted[/\\]([^/\\]+)[/\\][^/\\]+\s*$")
_ERROR = re.compile(r"^\[\w+ \| ERROR\] (.*)$")


def admitted(
    course: Course,
    chapter: str,
    flags: list[Flag],
    shard: tuple[int, int] | None = None,
    bounds: Bounds | None = None,
    only: set[str] | None = None,
) -> list[tuple[str, Path]]:
    """The submissions (of one shard) that can be graded, each rewritten into a gradable notebook.

    A submission over a limit is not graded: a flag says which limit and which option raises it.
    Every other one is reconciled with the student edition; what reconciliation changed is flagged,
    and the reconciled notebook is what nbgrader reads (the learner's file is kept beside it).

    Args:
        course: The course checkout.
        chapter: The chapter.
        flags: Receives one :class:`Flag` per refusal and per change.
        shard: ``(i, n)``: only the students of shard ``i`` of ``n``.
        bounds: The limits (:meth:`~autograder.pipeline.intake.bounds.Bounds.from_env` when None).
        only: Only these students (all when None).

    Returns:
        ``(student, path)`` of every submission to grade.
    """
    bounds = bounds or Bounds.from_env()
    edition = read_notebook(course.release_notebook(chapter))
    chosen = []
    for student, path in submissions(course, chapter):
        if (shard and shard_of(student, shard[1]) != shard[0]) or (only is not None and student not in only):
            continue
        try:
            notebook, notes = load(reconcile.original_of(path), bounds)
        except Refused as refused:
            flags.append(Flag(student, chapter, "", f"not graded: {refused}"))
            continue
        if untouched(notebook, edition):
            flags.append(Flag(student, chapter, "", UNTOUCHED))
        result = reconcile.reconcile(notebook, edition)
        result.changed = result.changed or bool(notes)
        flags += [Flag(student, chapter, "", note) for note in notes]
        flags += [Flag(student, chapter, grade_id, reason) for grade_id, reason in result.findings]
        reconcile.store(path, result)
        chosen.append((student, path))
    return chosen


def autograde(course: Course, chapter: str, db: str | None = None, bounds: Bounds | None = None) -> list[Flag]:
    """Grade every submission of a chapter; a broken one is flagged, never fatal.

    Runs ``nbgrader autograde`` on the :func:`admitted` submissions (nbgrader executes each in a
    fresh kernel and writes the gradebook), then checks each submission's test cells against the
    student edition and sets every test cell of a tampered exercise to a manual score of 0,
    flagged for review.

    Returns:
        Every flag raised, also written to ``autograded/<chapter>-flags.csv``.
    """
    from nbgrader.api import Gradebook, MissingEntry

    db = db or course.gradebook_url
    flags: list[Flag] = []
    chosen = admitted(course, chapter, flags, bounds=bounds)
    refused = sorted({s for s, _ in submissions(course, chapter)} - {s for s, _ in chosen})
    exclude = [f"--CourseDirectory.student_id_exclude={','.join(refused)}"] if refused else []
    gave_up: dict[str, str] = {}
    if chosen:
        # The course's nbgrader_config.py turns nbgrader's own autograde off (autograder.pipeline.gradebook.guard);
        # this is the route that asks for it by name.
        ran = course.nbgrader("autograde", chapter, "--force", *exclude, *NBGRADER_EXECUTES, db=db, check=False)
        gave_up = given_up(ran.stdout + ran.stderr)
    expected = test_cell_checksums(course.release_notebook(chapter))
    with Gradebook(db) as gradebook:
        for student, path in chosen:
            try:
                tampered = check_submission(expected, path)
            except ValueError as err:
                flags.append(Flag(student, chapter, "", f"unreadable submission: {err}"))
                continue
            flags += zero_tampered(gradebook, list(expected), chapter, student, tampered)
            try:
                gradebook.find_submission_notebook(chapter, chapter, student)
            except MissingEntry:
                flags.append(Flag(student, chapter, "", NBGRADER_REFUSED))
                continue
            # nbgrader keeps the zeros of a notebook it could not run, but not the notebook.
            if not (course.autograded / student / chapter / f"{chapter}.ipynb").exists():
                why = gave_up.get(student) or "nbgrader logged no reason"
                flags.append(Flag(student, chapter, "", f"{NBGRADER_COULD_NOT_RUN} ({why})"))
    write_flags(course.autograded / f"{chapter}-flags.csv", flags)
    return flags


def given_up(log: str) -> dict[str, str]:
    """The students whose submission nbgrader gave up on, by its log, each with the error it
    reported last before giving up ("Kernel died while waiting for execute reply."; "" if none)."""
    found: dict[str, str] = {}
    last = ""
    for line in log.splitlines():
        gave_up = _GAVE_UP.search(line)
        if gave_up:
            found[gave_up.group(1)] = last
            last = ""
            continue
        error = _ERROR.match(line.strip())
        if error and error.group(1).strip() not in ("Traceback (most recent call last):", ""):
            last = error.group(1).strip()
    return found


def scores(course: Course, chapter: str, db: str | None = None) -> dict[str, dict[str, float]]:
    """Score of every test cell, by student, as the gradebook holds it."""
    from nbgrader.api import Gradebook, MissingEntry

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

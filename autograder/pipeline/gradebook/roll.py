"""The class roll: every learner the course knows, and where each stands in a chapter.

A learner is on the roll when nbgrader's gradebook holds them (a roster given to ``collect
--roster`` or imported with ``nbgrader db student import``, and everyone graded), when they have a
submission in ``submitted/``, or when ``collect`` refused a file whose name said whose it was. In a
chapter each stands in exactly one state:

- *graded*: the submission in ``submitted/`` was graded as it is;
- *untouched*: graded, and it is the chapter exactly as released (nothing was tried);
- *refused*, with why: no submission could be graded, because ``collect`` refused the learner's
  file (its record says which and why, :class:`~autograder.pipeline.intake.records.CollectRecord`)
  or ``grade`` refused the one in ``submitted/`` (over a limit, unreadable);
- *collected, not graded yet*: the submission in ``submitted/`` is not the one last graded;
- *missing*: on the roll, and nothing of theirs was ever collected.

Every command that writes an output for learners (``collect``, ``grade``, ``feedback``, ``report``,
``export``) lists each learner once, with their state, from :func:`roll`.

Read without nbgrader (the gradebook through :class:`~autograder.pipeline.gradebook.ledger.Gradebook`),
so a command that has nothing else to do answers at once.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from autograder.pipeline.course import Course
from autograder.pipeline.gradebook.ledger import Gradebook, Ledger, submission_digest
from autograder.pipeline.intake.collect import UNTOUCHED
from autograder.pipeline.intake.records import CollectRecord, LearnerRecord

GRADED = "graded"
UNTOUCHED_STATE = "untouched"
REFUSED = "refused"
NOT_GRADED_YET = "collected, not graded yet"
MISSING = "missing"
STATES = (GRADED, UNTOUCHED_STATE, REFUSED, NOT_GRADED_YET, MISSING)
# The states whose score a grade export carries; for the others its cell is left empty.
SCORED = (GRADED, UNTOUCHED_STATE)
NOT_GRADED = "not graded"  # how a flag that refused a submission begins
NAMES_SHOWN = 30  # of the learners in one state, in a summary


@dataclass(frozen=True)
class Standing:
    """Where one learner stands in one chapter: a state of :data:`STATES`, and why where it says."""

    student: str
    state: str
    why: str = ""

    def __str__(self) -> str:
        return f"{self.state} ({self.why})" if self.why else self.state


def roll(course: Course, chapter: str, db: str | None = None) -> dict[str, Standing]:
    """Every learner on the roll and their standing in ``chapter``, by student id (sorted)."""
    from autograder.pipeline.gradebook.flags import submissions

    with Gradebook(db or course.gradebook_url) as gradebook:
        enrolled, recorded = gradebook.students(), gradebook.submitted(chapter)
    files = dict(submissions(course, chapter))
    entries = Ledger.entries_of(course, chapter)
    refusals = CollectRecord.of(course.submitted, chapter).refusals()
    learners = {*enrolled, *files, *refusals, *LearnerRecord.of(course.submitted).learners}
    flagged = _flags_csv(course.autograded / f"{chapter}-flags.csv")
    standings = {}
    for student in sorted(learners):
        path = files.get(student)
        if path is not None:
            standing = _submitted(student, path, entries.get(student), student in recorded, flagged.get(student, []))
        elif student in refusals:
            row = refusals[student]
            standing = Standing(student, REFUSED, f"{row.reason}: {row.file}, collected {row.when}")
        elif student in recorded:  # graded by another route (nbgrader's exchange), its file since removed
            standing = Standing(student, GRADED)
        else:
            standing = Standing(student, MISSING)
        standings[student] = standing
    return standings


def _submitted(student: str, path: Path, entry: dict | None, recorded: bool, flagged: list[str]) -> Standing:
    """The standing of a learner with a submission in ``submitted/``: as the ledger recorded the
    grading of that very file; else, where only another route graded it (``grade
    --unsafe-nbgrader``), as its gradebook record and flags say."""
    if entry is not None and "submission" in entry:  # the ledger knows which file it graded
        if entry["submission"] != submission_digest(path):
            return Standing(student, NOT_GRADED_YET)
        reasons = [reason for _, reason in entry.get("flags", [])]
    elif recorded or entry is not None:  # graded by another route, or by a ledger of an older layout
        reasons = [reason for _, reason in entry.get("flags", [])] if entry is not None else flagged
    else:
        reasons = flagged
    refused = [r for r in reasons if r.startswith(NOT_GRADED)]
    if (entry or {}).get("refused") or refused:
        return Standing(student, REFUSED, refused[0] if refused else "; ".join(reasons))
    if not recorded and entry is None:
        return Standing(student, NOT_GRADED_YET)
    return Standing(student, UNTOUCHED_STATE if UNTOUCHED in reasons else GRADED)


def _flags_csv(path: Path) -> dict[str, list[str]]:
    try:
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    except FileNotFoundError:
        return {}
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(row.get("student", ""), []).append(row.get("reason", ""))
    return found


def summary(chapter: str, standings: dict[str, Standing]) -> list[str]:
    """The roll of a chapter as a command prints it: how many learners in each state, then each
    learner once, under their state (a refused learner with why)."""
    by_state: dict[str, list[Standing]] = {state: [] for state in STATES}
    for standing in standings.values():
        by_state[standing.state].append(standing)
    counts = ", ".join(f"{len(found)} {state}" for state, found in by_state.items() if found)
    lines = [f"{chapter}: {len(standings)} learner(s){': ' + counts if counts else ''}"]
    for state, found in by_state.items():
        if not found:
            continue
        if state == REFUSED:
            lines += [f"  {state}: {s.student} ({s.why})" for s in found]
            continue
        names = [s.student for s in found]
        more = f" … and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
        lines.append(f"  {state}: {', '.join(names[:NAMES_SHOWN])}{more}")
    return lines

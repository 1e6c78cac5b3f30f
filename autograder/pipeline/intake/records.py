"""What intake keeps across runs: the collect record of each chapter and the learners the LMS named.

Both are CSV files in ``submitted/`` that every run merges into, never replaces: a second
download, or a download of one learner, leaves every other row as it was.

- ``submitted/<chapter>-collect.csv`` (:class:`CollectRecord`): every file ``collect`` did not use
  as it came, with when, what was done and why (``when``, ``file``, ``action``, ``reason``,
  ``student``). A run's rows replace the rows of the same file; a learner's rows stay until a later
  submission of that learner is admitted, which replaces them with its own (a refusal is kept,
  so the instructor knows whom to ask for a readable file, until that file arrives).
- ``submitted/learners.csv`` (:class:`LearnerRecord`): per student id, the identifiers the LMS's
  grade import reads that nbgrader's gradebook has no column for (Canvas's ``SIS User ID`` and
  ``Section``, the LMS login), beside those it has (names, email, ``lms_user_id``). A run fills in
  what it learnt and keeps every other value.

Each file is written whole to a temporary file and moved into place, so a killed run leaves the
previous record, never half of one.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

COLLECT_COLUMNS = ["when", "file", "action", "reason", "student"]


@dataclass(frozen=True)
class CollectRow:
    """One row of a collect record: a file not used as it came (``action``: ``refused``,
    ``dropped`` or ``collected`` with a note), and the student it belongs to where its name says."""

    when: str
    file: str
    action: str
    reason: str
    student: str = ""


class CollectRecord:
    """``submitted/<chapter>-collect.csv``, read and merged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows = [CollectRow(**{c: row.get(c) or "" for c in COLLECT_COLUMNS}) for row in _read(path)]

    @classmethod
    def of(cls, submitted: Path, chapter: str) -> CollectRecord:
        return cls(submitted / f"{chapter}-collect.csv")

    def merge(self, rows: Iterable[CollectRow], admitted: Iterable[str]) -> None:
        """Add one run's rows and save: a learner ``admitted`` in this run loses every earlier row
        (their new submission replaced what those rows were about), a file read again loses its
        earlier row; every other row is kept."""
        rows = list(rows)
        admitted, files = set(admitted), {r.file for r in rows}
        kept = [r for r in self.rows if r.student not in admitted and r.file not in files]
        self.rows = kept + rows
        _write(self.path, COLLECT_COLUMNS, ([getattr(r, c) for c in COLLECT_COLUMNS] for r in self.rows))

    def refusals(self) -> dict[str, CollectRow]:
        """Per student, the latest refusal of one of their files."""
        latest: dict[str, CollectRow] = {}
        for row in self.rows:
            if row.action == "refused" and row.student and row.when >= latest.get(row.student, row).when:
                latest[row.student] = row
        return latest


@dataclass(frozen=True)
class Learner:
    """A learner's identifiers, as the LMS's roster and download gave them (empty: not known)."""

    student: str
    lms: str = ""
    lms_user_id: str = ""
    sis_user_id: str = ""
    login: str = ""
    section: str = ""
    first_name: str = ""
    last_name: str = ""
    email: str = ""


LEARNER_COLUMNS = [f.name for f in fields(Learner)]


class LearnerRecord:
    """``submitted/learners.csv``, read and merged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.learners = {row["student"]: Learner(**{c: row.get(c) or "" for c in LEARNER_COLUMNS})
                         for row in _read(path) if row.get("student")}

    @classmethod
    def of(cls, submitted: Path) -> LearnerRecord:
        return cls(submitted / "learners.csv")

    def merge(self, learners: Iterable[Learner]) -> None:
        """Fill in what ``learners`` know and save; a value they leave empty keeps the recorded one."""
        for learner in learners:
            before = asdict(self.learners.get(learner.student, Learner(learner.student)))
            given = {k: v for k, v in asdict(learner).items() if v}
            self.learners[learner.student] = Learner(**{**before, **given})
        rows = ([getattr(self.learners[s], c) for c in LEARNER_COLUMNS] for s in sorted(self.learners))
        _write(self.path, LEARNER_COLUMNS, rows)


def _read(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))
    except FileNotFoundError:
        return []


def _write(path: Path, header: list[str], rows: Iterable[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    os.replace(temporary, path)

"""What the grader recorded for each submission, and whether it still holds.

The ledger (``autograded/.<chapter>[-shard<I>of<N>]-graded.json``, where the sandbox cannot write)
keeps, per student, three digests and the flags raised:

- the file graded (``submitted/<student>/<chapter>/<chapter>.ipynb``, with the grading code, the
  chapter's student edition and the limits it was read within; and on its own, so that the class's
  roll can tell a submission graded as it is from one collected since, whatever the limits);
- what the gradebook holds for it: every cell's automatic score;
- the autograded notebook (feedback is generated from it).

A submission is skipped when all three are as the grader left them. A new file is graded. A
gradebook or autograded notebook that changed while the file did not — another route wrote them:
formgrader's Autograde button, ``nbgrader autograde``, an edit — is graded again and reported, so
no score the course computed is replaced without a word. (Manual scores are not part of it:
formgrader's manual grading is meant to override, and does.)

This module needs only the standard library and SQLAlchemy: a run with nothing to grade answers
in about a second, without importing nbgrader, nbformat or torch.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import closing
from dataclasses import dataclass, field, fields
from pathlib import Path

import autograder
from autograder.pipeline.course import Course
from autograder.pipeline.intake.bounds import Bounds

# A submission's grades as nbgrader stores them (nbgrader 0.9's tables).
_GRADES = """
SELECT sa.student_id, bc.name, g.auto_score
FROM grade g
JOIN submitted_notebook sn ON g.notebook_id = sn.id
JOIN submitted_assignment sa ON sn.assignment_id = sa.id
JOIN assignment a ON sa.assignment_id = a.id
JOIN base_cell bc ON g.cell_id = bc.id
WHERE a.name = :assignment
"""
_STUDENTS = "SELECT id FROM student"
_SUBMITTED = """
SELECT sa.student_id
FROM submitted_notebook sn
JOIN submitted_assignment sa ON sn.assignment_id = sa.id
JOIN assignment a ON sa.assignment_id = a.id
WHERE a.name = :assignment
"""


def shard_of(student: str, count: int) -> int:
    """The shard (0-based) a student belongs to: stable across machines and runs."""
    return int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big") % count


def grader_fingerprint() -> str:
    """Hash of the grading code and cases: a change regrades every submission."""
    digest = hashlib.sha256()
    packages = Path(autograder.__file__).parent, Path(autograder.__file__).parent.parent / "answer_key"
    for path in sorted(p for package in packages for p in package.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def fingerprint(course: Course, chapter: str, bounds: Bounds) -> str:
    """What a grade depends on besides the submission: the grading code, the student edition, the
    limits."""
    digest = hashlib.sha256(grader_fingerprint().encode())
    digest.update(course.release_notebook(chapter).read_bytes())
    digest.update(json.dumps([getattr(bounds, f.name) for f in fields(bounds)]).encode())
    return digest.hexdigest()


def file_digest(path: Path, base: str) -> str:
    return hashlib.sha256(path.read_bytes() + base.encode()).hexdigest()


def submission_digest(path: Path) -> str:
    """The file's own digest (nothing of the grader in it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def autograded_digest(course: Course, student: str, chapter: str) -> str:
    path = course.autograded / student / chapter / f"{chapter}.ipynb"
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


class Gradebook:
    """Reads what the gradebook holds for a chapter's submissions (SQLAlchemy, no nbgrader)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine = None

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._engine is not None:
            self._engine.dispose()

    def digests(self, assignment: str, student: str | None = None) -> dict[str, str]:
        """Per student, a digest of every cell's automatic score (no entry: nothing recorded)."""
        query = _GRADES + (" AND sa.student_id = :student" if student else "")
        rows = self._rows(query, parameters={"assignment": assignment, "student": student})
        scores: dict[str, list] = {}
        for who, cell, score in rows:
            scores.setdefault(who, []).append((cell, None if score is None else float(score)))
        return {who: hashlib.sha256(json.dumps(sorted(found)).encode()).hexdigest() for who, found in scores.items()}

    def students(self) -> list[str]:
        """Every student the gradebook holds (nbgrader's roster)."""
        return sorted(row[0] for row in self._rows(_STUDENTS, {}))

    def submitted(self, assignment: str) -> set[str]:
        """The students with a submission of ``assignment`` recorded (a notebook nbgrader graded)."""
        return {row[0] for row in self._rows(_SUBMITTED, {"assignment": assignment})}

    def _rows(self, query: str, parameters: dict) -> list:
        if self.url.startswith("sqlite:///"):
            return self._sqlite(query, parameters)
        return self._sqlalchemy(query, parameters)

    def _sqlite(self, query: str, parameters: dict) -> list:
        """SQLite, nbgrader's default, through the standard library (SQLAlchemy takes half a second to import)."""
        import sqlite3

        path = Path(self.url.removeprefix("sqlite:///"))
        if not path.exists():
            return []
        try:
            with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
                return connection.execute(query, parameters).fetchall()
        except sqlite3.Error:  # not nbgrader's gradebook (yet): everything is graded
            return []

    def _sqlalchemy(self, query: str, parameters: dict) -> list:
        from sqlalchemy import create_engine, text
        from sqlalchemy.exc import SQLAlchemyError

        if self._engine is None:
            self._engine = create_engine(self.url)
        try:
            with self._engine.connect() as connection:
                return connection.execute(text(query), parameters).all()
        except SQLAlchemyError:  # no gradebook yet, or not nbgrader's: everything is graded
            return []


@dataclass
class Check:
    """Which submissions need grading."""

    unchanged: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # refused last time (a limit, unreadable), unchanged since
    changed_elsewhere: list[str] = field(default_factory=list)  # its file unchanged, its grades not
    todo: list[tuple[str, Path]] = field(default_factory=list)


class Ledger:
    """The digests and flags of a chapter's graded submissions (one file per shard)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            entries = json.loads(path.read_text())
        except (OSError, ValueError):
            entries = {}
        # An entry of an older layout (one digest) is simply not matched: that submission is graded again.
        self.entries: dict[str, dict] = {k: v for k, v in entries.items() if isinstance(v, dict)}

    @classmethod
    def of(cls, course: Course, chapter: str, shard: tuple[int, int] | None = None) -> Ledger:
        name = f"-shard{shard[0]}of{shard[1]}" if shard else ""
        return cls(course.autograded / f".{chapter}{name}-graded.json")

    @classmethod
    def entries_of(cls, course: Course, chapter: str) -> dict[str, dict]:
        """Every student's entry, from the chapter's ledger and its shards' (copied into one
        ``autograded/``): the latest-written ledger wins for a student graded in several."""
        paths = [course.autograded / f".{chapter}-graded.json",
                 *course.autograded.glob(f".{chapter}-shard*of*-graded.json")]
        entries: dict[str, dict] = {}
        for path in sorted((p for p in paths if p.exists()), key=lambda p: p.stat().st_mtime):
            entries.update(cls(path).entries)
        return entries

    def check(self, course: Course, chapter: str, db: str, bounds: Bounds, shard: tuple[int, int] | None = None,
              students: set[str] | None = None, force: bool = False) -> Check:
        """Sort the chapter's submissions (of the shard, of ``students``) into unchanged and to grade."""
        from autograder.pipeline.gradebook.flags import submissions

        base = fingerprint(course, chapter, bounds)
        with Gradebook(db) as gradebook:
            recorded = gradebook.digests(chapter)
        check = Check()
        for student, path in submissions(course, chapter):
            if shard and shard_of(student, shard[1]) != shard[0]:
                continue
            if students is not None and student not in students:
                continue
            entry = self.entries.get(student)
            if force or entry is None or entry.get("file") != file_digest(path, base):
                check.todo.append((student, path))
            elif entry.get("gradebook") != recorded.get(student) \
                    or entry.get("autograded") != autograded_digest(course, student, chapter):
                check.changed_elsewhere.append(student)
                check.todo.append((student, path))
            else:
                (check.refused if entry.get("refused") else check.unchanged).append(student)
        return check

    def flags(self, student: str) -> list[tuple[str, str]]:
        """``(grade_id, reason)`` of the flags raised when ``student`` was last graded."""
        return [tuple(f) for f in self.entries.get(student, {}).get("flags", [])]

    def record(self, student: str, file: str, gradebook: str | None, autograded: str,
               flags: list[tuple[str, str]], refused: bool = False, submission: str | None = None) -> None:
        """Record one graded (or ``refused``: not graded, for the reasons in ``flags``) submission, and
        save at once (a killed run keeps what it finished). Every other student's entry is kept.

        Args:
            submission: The file's own digest (:func:`submission_digest`).
        """
        self.entries[student] = {"file": file, "gradebook": gradebook, "autograded": autograded,
                                 "flags": [list(f) for f in flags], **({"refused": True} if refused else {}),
                                 **({"submission": submission} if submission else {})}
        self.save()

    def write_flags(self, path: Path, chapter: str) -> None:
        """Write ``path`` (``autograded/<chapter>-flags.csv``) with the flags of every student the ledger
        holds, each as their last grading raised them."""
        from autograder.pipeline.gradebook.flags import Flag, write_flags

        write_flags(path, [Flag(student, chapter, grade_id, reason)
                           for student in sorted(self.entries) for grade_id, reason in self.flags(student)])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.entries, indent=1, sort_keys=True))
        os.replace(temporary, self.path)

"""Collect a folder or archive of learners' notebooks into nbgrader's ``submitted/`` layout.

Files are named as nbgrader's layout, Canvas's "Download Submissions" and Moodle's "Download all
submissions" name them (:mod:`autograder.pipeline.intake.lms` lists the forms and where each LMS makes
them). Of a learner's files, the latest is kept (Canvas: the largest file id; otherwise the file's
date) and each earlier one is a row saying which was kept. A roster exported from the LMS
(:func:`autograder.pipeline.intake.lms.read_roster`) maps every learner to the identifiers the LMS's grade
import matches on; they are recorded in nbgrader's gradebook, so that ``export`` fills them in.

Everything else is reported, not guessed: a file with another name (the row lists every accepted
form), an empty or corrupt notebook, a notebook of another chapter (it carries none of this
chapter's cell ids), and every file over a limit of :class:`~autograder.pipeline.intake.bounds.Bounds`
(the instructor guide lists them and their options). A notebook that is the chapter exactly as
released (no answer written) is collected with a row saying so.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import tarfile
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.pipeline.intake.bounds import Bounds, Refused, parse, read_capped, size
from autograder.pipeline.intake.lms import (
    Identity,
    Named,
    Roster,
    accepted_forms,
    identify,
    name_of,
    unfit_student_id,
)
from autograder.pipeline.intake.records import CollectRecord, CollectRow, Learner, LearnerRecord
from autograder.pipeline.progress import Progress

if TYPE_CHECKING:
    import nbformat

UNTOUCHED = "untouched: the notebook is the chapter as released, no answer written"


@dataclass(frozen=True)
class Problem:
    """A file that was not collected as it was, and why.

    ``action`` is ``refused`` (not collected), ``dropped`` (a learner's earlier file: a later one
    was kept) or ``collected`` (collected, with a note: changed, untouched, late, not in the roster).
    """

    path: str
    reason: str
    action: str = "refused"
    student: str = ""


@dataclass(frozen=True)
class _Entry:
    """One file of the source: its name, when it was saved, its size if known, how to open it."""

    name: str
    mtime: float
    size: int | None
    open: Callable[[], IO[bytes]]


@dataclass
class _Candidate:
    entry: _Entry
    named: Named
    kept: Path
    notes: list[str]


def collect(
    course: Course,
    chapter: str,
    source: Path,
    bounds: Bounds | None = None,
    roster: Roster | None = None,
    db: str | None = None,
    progress: bool = False,
) -> tuple[list[str], list[Problem]]:
    """Copy every usable submission of ``chapter`` under ``source`` into ``submitted/``.

    Every file is read within ``bounds`` (:mod:`autograder.pipeline.intake.bounds`): a file over a limit
    is refused with its reason, an archive member is never unpacked past its limit, and no file
    stops the others from being collected. A refused file whose name says whose it is keeps that
    learner's student id in its row.

    Args:
        course: The course checkout.
        chapter: The chapter.
        source: A folder, ``.zip`` or ``.tar(.gz)``: an LMS's class download, or nbgrader's layout.
        bounds: The limits (:meth:`Bounds.from_env` when None).
        roster: The LMS's roster (:func:`~autograder.pipeline.intake.lms.read_roster`), for its identifiers;
            its learners without a file are recorded too (the class's roll lists them as missing).
        db: The gradebook that records the learners' LMS identifiers (the course's by default).
        progress: Draw a progress bar on stderr.

    Returns:
        The students collected, and every file that was refused, dropped or collected with a note,
        with the reason (also merged into ``submitted/<chapter>-collect.csv``,
        :class:`~autograder.pipeline.intake.records.CollectRecord`).
    """
    bounds = bounds or Bounds.from_env()
    edition = read_notebook(course.release_notebook(chapter))
    grade_ids = {nbgrader_meta(c).get("grade_id") for c in edition.cells}
    grade_ids.discard(None)
    problems: list[Problem] = []
    refused: list[tuple[_Entry, Named, str]] = []  # files whose learner is known, and why each was refused
    when = datetime.now(UTC).isoformat(timespec="seconds")
    with tempfile.TemporaryDirectory() as scratch:
        candidates: dict[str, list[_Candidate]] = {}
        total, entries = _entries(source, bounds, problems)
        bar = Progress(total, f"{chapter} files read") if progress else None
        for entry in entries:
            if bar:
                bar.step(Path(entry.name).name)
            parts = Path(entry.name).parts
            if not entry.name.endswith(".ipynb") or "__MACOSX" in parts or ".ipynb_checkpoints" in parts:
                problems.append(Problem(entry.name, "not a notebook of this chapter (wrong name)"))
                continue
            named = name_of(entry.name, chapter, entry.mtime)
            if named is None:
                unfit = unfit_student_id(entry.name, chapter)
                problems.append(Problem(entry.name, f"wrong name: {unfit}" if unfit else
                                        f"wrong name: expected {accepted_forms(chapter)}"))
                continue
            try:
                data, notebook, notes = _read(entry, bounds)
            except Refused as why:
                refused.append((entry, named, str(why)))
                continue
            if not {nbgrader_meta(c).get("grade_id") for c in notebook.cells} & grade_ids:
                refused.append((entry, named, "wrong chapter: none of this chapter's cells is in it"))
                continue
            if untouched(notebook, edition):
                notes.append(UNTOUCHED)
            if named.late:
                notes.append("Canvas marked it late")
            kept = Path(scratch) / f"{sum(map(len, candidates.values()))}.ipynb"
            if any(not note.startswith((UNTOUCHED, "Canvas")) for note in notes):
                import nbformat

                nbformat.write(notebook, kept)
            else:
                kept.write_bytes(data)
            candidates.setdefault(named.learner, []).append(_Candidate(entry, named, kept, notes))
        if bar:
            bar.finish()
        latest = {learner: max(found, key=lambda c: c.named.order) for learner, found in candidates.items()}
        named_only = {n.learner: n for _, n, _ in refused if n.learner not in latest}
        on_roster = {n.learner: n for n, _ in (roster.learners() if roster else [])
                     if n.learner not in latest and n.learner not in named_only}
        everyone = {**{k: c.named for k, c in latest.items()}, **named_only, **on_roster}
        identities, roster_notes = _identities(course, everyone, roster, db)
        for entry, named, reason in refused:
            problems.append(Problem(entry.name, reason, "refused", identities[named.learner].student))
        for learner, found in candidates.items():
            chosen, student = latest[learner], identities[learner].student
            for candidate in found:
                if candidate is not chosen:
                    problems.append(Problem(candidate.entry.name, f"an earlier submission of {student}: kept the "
                                            f"later {chosen.entry.name}", "dropped", student))
            problems += [Problem(chosen.entry.name, note, "collected", student) for note in chosen.notes]
        problems += [Problem(latest[learner].entry.name, note, "collected", identities[learner].student)
                     for learner, note in roster_notes if learner in latest]
        for learner, candidate in latest.items():
            target = course.submitted / identities[learner].student / chapter / f"{chapter}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.tmp")
            shutil.copyfile(candidate.kept, temporary)
            os.replace(temporary, target)
    collected = sorted(identities[learner].student for learner in latest)
    CollectRecord.of(course.submitted, chapter).merge(
        (CollectRow(when, p.path, p.action, p.reason, p.student) for p in problems), collected)
    LearnerRecord.of(course.submitted).merge(
        Learner(i.student, everyone[k].lms, i.lms_user_id or "", i.sis_user_id or "", i.login or "", i.section or "",
                i.first_name or "", i.last_name or "", i.email or "")
        for k, i in identities.items() if everyone[k].lms or k in on_roster)
    return collected, problems


def untouched(notebook: nbformat.NotebookNode, edition: nbformat.NotebookNode) -> bool:
    """The notebook is the student edition as released: the same cells, the same sources (its
    outputs may differ: the learner ran it)."""
    def cells(nb):
        return [(c.get("cell_type"), c.get("source")) for c in nb.cells]

    return cells(notebook) == cells(edition)


def _identities(
    course: Course, named: dict[str, Named], roster: Roster | None, db: str | None
) -> tuple[dict[str, Identity], list[tuple[str, str]]]:
    """Each learner's identity; those an LMS named, and every learner of the roster, are recorded in
    the gradebook with their LMS identifiers (what the grade export fills in)."""
    if not any(n.lms for n in named.values()):
        return identify(named, roster, {})
    from nbgrader.api import Gradebook  # only for LMS downloads: a second of imports

    with Gradebook(db or course.gradebook_url) as gradebook:
        known: dict[str, Identity] = {}
        for student in gradebook.students:
            identity = Identity(student.id, student.first_name, student.last_name, student.email, student.lms_user_id)
            known[f"student:{student.id}"] = identity
            if student.lms_user_id:
                known[f"lms:{student.lms_user_id}"] = identity
            if student.email:
                known[f"email:{student.email.casefold()}"] = identity
        identities, notes = identify(named, roster, known)
        for learner, identity in identities.items():
            if named[learner].lms:
                fields = {f: getattr(identity, f) for f in ("first_name", "last_name", "email", "lms_user_id")}
                gradebook.update_or_create_student(identity.student, **{k: v for k, v in fields.items() if v})
    return identities, notes


def _read(entry: _Entry, bounds: Bounds) -> tuple[bytes, nbformat.NotebookNode, list[str]]:
    if entry.size is not None and entry.size > bounds.notebook_bytes:
        raise Refused(f"the notebook is {size(entry.size)} once unpacked, over the limit of "
                      f"{size(bounds.notebook_bytes)} (--max-notebook-bytes)")
    try:
        with entry.open() as stream:
            data = read_capped(stream, bounds.notebook_bytes)
    except (OSError, EOFError, zipfile.BadZipFile, tarfile.TarError, zlib.error) as err:
        raise Refused(f"damaged in the archive, cannot be unpacked: {err}") from None
    return data, *parse(data, bounds)


def _entries(source: Path, bounds: Bounds, problems: list[Problem]) -> tuple[int | None, Iterator[_Entry]]:
    """How many files the source holds (None when only reading it tells: a compressed tar), and
    the files, each opened only when read (and read only within bounds).

    An archive's members are listed from its directory; a member that is not a regular file, or
    whose name leaves the archive, is reported and never opened. Once the members read add up to
    ``bounds.total_bytes``, the rest are reported as over the archive's limit.
    """
    if source.is_dir():
        paths = sorted(source.rglob("*"))
        return sum(p.is_file() for p in paths), _folder(source, paths, problems)
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as bundle:
            count = sum(not m.is_dir() for m in bundle.infolist())
        return count, _zip(source, bounds, problems)
    if tarfile.is_tarfile(source):
        return None, _tar(source, bounds, problems)
    raise ValueError(f"{source}: neither a folder nor a zip or tar archive")


def _folder(source: Path, paths: list[Path], problems: list[Problem]) -> Iterator[_Entry]:
    for path in paths:
        if path.is_symlink() or (path.exists() and not path.is_dir() and not path.is_file()):
            problems.append(Problem(str(path.relative_to(source)), "not a regular file (a link or a device): "
                                                                  "never read"))
        elif path.is_file():
            info = path.stat()
            yield _Entry(str(path.relative_to(source)), info.st_mtime, info.st_size, _opener(path))


def _zip(source: Path, bounds: Bounds, problems: list[Problem]) -> Iterator[_Entry]:
    with zipfile.ZipFile(source) as bundle:
        members = [m for m in bundle.infolist() if not m.is_dir()]
        listed = [(m.filename, time.mktime((*m.date_time, 0, 0, -1)), m.file_size,
                   _zip_opener(bundle, m), _is_link(m)) for m in members]
        yield from _budgeted(listed, bounds, problems)


def _tar(source: Path, bounds: Bounds, problems: list[Problem]) -> Iterator[_Entry]:
    with tarfile.open(source) as bundle:
        # One pass over the stream: a compressed tar cannot seek back cheaply.
        listed = ((m.name, float(m.mtime), m.size, _tar_opener(bundle, m), not m.isfile())
                  for m in bundle if not m.isdir())
        yield from _budgeted(listed, bounds, problems)


def _budgeted(listed: Iterable[tuple], bounds: Bounds, problems: list[Problem]) -> Iterator[_Entry]:
    used = 0
    for index, (name, mtime, declared, opener, special) in enumerate(listed):
        if index >= bounds.members:
            problems.append(Problem(name, f"the archive has more than {bounds.members} files; this one and the "
                                          "rest were not read (--max-members)"))
            return
        parts = Path(name).parts
        if special:
            problems.append(Problem(name, "not a regular file (a link or a device): never unpacked"))
            continue
        if Path(name).is_absolute() or ".." in parts:
            problems.append(Problem(name, "its name leaves the archive's folder: never unpacked"))
            continue
        if name.endswith(".ipynb") and min(declared, bounds.notebook_bytes + 1) + used > bounds.total_bytes:
            problems.append(Problem(name, f"the archive unpacks to more than {size(bounds.total_bytes)} "
                                          "(--max-total-bytes): not read"))
            continue
        if name.endswith(".ipynb"):
            used += min(declared, bounds.notebook_bytes + 1)
        yield _Entry(name, mtime, declared, opener)


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    return lambda: path.open("rb")


def _zip_opener(bundle: zipfile.ZipFile, member: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: bundle.open(member)


def _tar_opener(bundle: tarfile.TarFile, member: tarfile.TarInfo) -> Callable[[], IO[bytes]]:
    return lambda: bundle.extractfile(member) or io.BytesIO()


def _is_link(member: zipfile.ZipInfo) -> bool:
    return stat.S_IFMT(member.external_attr >> 16) not in (0, stat.S_IFREG)

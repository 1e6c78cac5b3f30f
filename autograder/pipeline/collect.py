"""Collect a folder or archive of learners' notebooks into nbgrader's ``submitted/`` layout.

Accepted names (what LMS downloads and nbgrader exchanges produce):
``<student>/<chapter>.ipynb``, ``<student>/<chapter>/<chapter>.ipynb``, and
``<student>_<chapter>.ipynb`` or ``<student>-<chapter>.ipynb`` anywhere in the tree. Everything else
is reported, not guessed: a file with another name, an empty or corrupt notebook, a notebook of
another chapter (it carries none of this chapter's cell ids), a second copy for one student (the
newest wins), and every file over a limit of :class:`~autograder.pipeline.bounds.Bounds` (the
instructor guide lists them and their options).
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import stat
import tarfile
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import nbformat

from autograder.pipeline.bounds import Bounds, Refused, parse, read_capped, size
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook

STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")


@dataclass(frozen=True)
class Problem:
    """A file that was not collected as it was, and why."""

    path: str
    reason: str
    action: str = "refused"


@dataclass(frozen=True)
class _Entry:
    """One file of the source: its name, when it was saved, its size if known, how to open it."""

    name: str
    mtime: float
    size: int | None
    open: Callable[[], IO[bytes]]


def collect(
    course: Course, chapter: str, source: Path, bounds: Bounds | None = None
) -> tuple[list[str], list[Problem]]:
    """Copy every usable submission of ``chapter`` under ``source`` into ``submitted/``.

    Every file is read within ``bounds`` (:mod:`autograder.pipeline.bounds`): a file over a limit
    is refused with its reason, an archive member is never unpacked past its limit, and no file
    stops the others from being collected.

    Returns:
        The students collected, and every file that was refused or changed, with the reason (also
        written to ``submitted/<chapter>-collect.csv``).
    """
    bounds = bounds or Bounds.from_env()
    grade_ids = {nbgrader_meta(c).get("grade_id") for c in read_notebook(course.release_notebook(chapter)).cells}
    grade_ids.discard(None)
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory() as scratch:
        chosen: dict[str, tuple[_Entry, Path]] = {}
        for entry in _entries(source, bounds, problems):
            parts = Path(entry.name).parts
            if not entry.name.endswith(".ipynb") or "__MACOSX" in parts or ".ipynb_checkpoints" in parts:
                problems.append(Problem(entry.name, "not a notebook of this chapter (wrong name)"))
                continue
            student = _student(Path(entry.name), chapter)
            if student is None:
                problems.append(Problem(entry.name, f"wrong name: expected <student>/{chapter}.ipynb or "
                                                    f"<student>_{chapter}.ipynb"))
                continue
            try:
                data, notebook, notes = _read(entry, bounds)
            except Refused as refused:
                problems.append(Problem(entry.name, str(refused)))
                continue
            if not {nbgrader_meta(c).get("grade_id") for c in notebook.cells} & grade_ids:
                problems.append(Problem(entry.name, "wrong chapter: none of this chapter's cells is in it"))
                continue
            problems += [Problem(entry.name, note, "collected") for note in notes]
            kept = Path(scratch) / f"{len(chosen)}-{student}.ipynb"
            if notes:
                nbformat.write(notebook, kept)
            else:
                kept.write_bytes(data)
            if student in chosen:
                older, newer = sorted((chosen[student], (entry, kept)), key=lambda pair: pair[0].mtime)
                problems.append(Problem(older[0].name, f"second copy for {student}; kept the newer"))
                chosen[student] = newer
            else:
                chosen[student] = (entry, kept)
        for student, (_, kept) in chosen.items():
            target = course.submitted / student / chapter / f"{chapter}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(kept, target)
    _write(course.submitted / f"{chapter}-collect.csv", problems)
    return sorted(chosen), problems


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


def _entries(source: Path, bounds: Bounds, problems: list[Problem]) -> Iterator[_Entry]:
    """The files of a folder or archive, each opened only when read (and read only within bounds).

    An archive's members are listed from its directory; a member that is not a regular file, or
    whose name leaves the archive, is reported and never opened. Once the members read add up to
    ``bounds.total_bytes``, the rest are reported as over the archive's limit.
    """
    if source.is_dir():
        for path in sorted(source.rglob("*")):
            if path.is_symlink() or (path.exists() and not path.is_dir() and not path.is_file()):
                problems.append(Problem(str(path.relative_to(source)), "not a regular file (a link or a device): "
                                                                      "never read"))
            elif path.is_file():
                info = path.stat()
                yield _Entry(str(path.relative_to(source)), info.st_mtime, info.st_size, _opener(path))
        return
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as bundle:
            members = [m for m in bundle.infolist() if not m.is_dir()]
            listed = [(m.filename, time.mktime((*m.date_time, 0, 0, -1)), m.file_size,
                       _zip_opener(bundle, m), _is_link(m)) for m in members]
            yield from _budgeted(listed, bounds, problems)
    elif tarfile.is_tarfile(source):
        with tarfile.open(source) as bundle:
            # One pass over the stream: a compressed tar cannot seek back cheaply.
            listed = ((m.name, float(m.mtime), m.size, _tar_opener(bundle, m), not m.isfile())
                      for m in bundle if not m.isdir())
            yield from _budgeted(listed, bounds, problems)
    else:
        raise ValueError(f"{source}: neither a folder nor a zip or tar archive")


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


def _student(relative: Path, chapter: str) -> str | None:
    parts = relative.parts
    if relative.name == f"{chapter}.ipynb":
        owners = [p for p in parts[:-1] if p != chapter]
        candidate = owners[-1] if owners else None
    else:
        match = re.fullmatch(rf"(.+?)[_-]{re.escape(chapter)}\.ipynb", relative.name)
        candidate = match.group(1) if match else None
    return candidate if candidate and STUDENT_ID.fullmatch(candidate) else None


def _write(path: Path, problems: list[Problem]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "action", "reason"])
        writer.writerows([p.path, p.action, p.reason] for p in problems)

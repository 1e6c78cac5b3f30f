"""Collect a folder or archive of learners' notebooks into nbgrader's ``submitted/`` layout.

Accepted names (what LMS downloads and nbgrader exchanges produce):
``<student>/<chapter>.ipynb``, ``<student>/<chapter>/<chapter>.ipynb``, and
``<student>_<chapter>.ipynb`` or ``<student>-<chapter>.ipynb`` anywhere in the tree. Everything else
is reported, not guessed: a file with another name, an empty or corrupt notebook, a notebook of
another chapter (it carries none of this chapter's cell ids), a second copy for one student (the
newest wins).
"""

from __future__ import annotations

import csv
import re
import shutil
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder.pipeline.course import Course, nbgrader_meta, read_notebook

STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")


@dataclass(frozen=True)
class Problem:
    """A file that was not collected, and why."""

    path: str
    reason: str


def collect(course: Course, chapter: str, source: Path) -> tuple[list[str], list[Problem]]:
    """Copy every usable submission of ``chapter`` under ``source`` into ``submitted/``.

    Returns:
        The students collected, and every file that was not, with the reason (also written to
        ``submitted/<chapter>-collect.csv``).
    """
    grade_ids = {nbgrader_meta(c).get("grade_id") for c in read_notebook(course.release_notebook(chapter)).cells}
    grade_ids.discard(None)
    with tempfile.TemporaryDirectory() as scratch:
        tree = _unpack(source, Path(scratch)) if source.is_file() else source
        chosen: dict[str, Path] = {}
        problems: list[Problem] = []
        for path in sorted(p for p in tree.rglob("*") if p.is_file()):
            shown = str(path.relative_to(tree))
            if path.suffix != ".ipynb" or "__MACOSX" in path.parts or ".ipynb_checkpoints" in path.parts:
                problems.append(Problem(shown, "not a notebook of this chapter (wrong name)"))
                continue
            student = _student(path.relative_to(tree), chapter)
            if student is None:
                problems.append(Problem(shown, f"wrong name: expected <student>/{chapter}.ipynb or "
                                               f"<student>_{chapter}.ipynb"))
                continue
            reason = _unusable(path, grade_ids)
            if reason:
                problems.append(Problem(shown, reason))
                continue
            if student in chosen:
                older, newer = sorted((chosen[student], path), key=lambda p: p.stat().st_mtime)
                problems.append(Problem(str(older.relative_to(tree)), f"second copy for {student}; kept the newer"))
                path = newer
            chosen[student] = path
        for student, path in chosen.items():
            target = course.submitted / student / chapter / f"{chapter}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    _write(course.submitted / f"{chapter}-collect.csv", problems)
    return sorted(chosen), problems


def _unpack(archive: Path, into: Path) -> Path:
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as bundle:
            for member in bundle.infolist():
                name = Path(member.filename)
                if name.is_absolute() or ".." in name.parts:
                    continue
                bundle.extract(member, into)
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as bundle:
            bundle.extractall(into, filter="data")
    else:
        raise ValueError(f"{archive}: neither a folder nor a zip or tar archive")
    return into


def _student(relative: Path, chapter: str) -> str | None:
    parts = relative.parts
    if relative.name == f"{chapter}.ipynb":
        owners = [p for p in parts[:-1] if p != chapter]
        candidate = owners[-1] if owners else None
    else:
        match = re.fullmatch(rf"(.+?)[_-]{re.escape(chapter)}\.ipynb", relative.name)
        candidate = match.group(1) if match else None
    return candidate if candidate and STUDENT_ID.fullmatch(candidate) else None


def _unusable(path: Path, grade_ids: set[str]) -> str | None:
    if path.stat().st_size == 0:
        return "empty file"
    try:
        notebook = read_notebook(path)
        nbformat.validate(notebook)
    except (ValueError, nbformat.ValidationError) as err:
        return f"corrupt notebook: {str(err).splitlines()[0][:200]}"
    found = {nbgrader_meta(c).get("grade_id") for c in notebook.cells}
    if not found & grade_ids:
        return "wrong chapter: none of this chapter's cells is in it"
    return None


def _write(path: Path, problems: list[Problem]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "reason"])
        writer.writerows([p.path, p.reason] for p in problems)

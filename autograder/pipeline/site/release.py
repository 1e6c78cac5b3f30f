"""Generate the student edition of each chapter with nbgrader's own ``GenerateAssignment``."""

from __future__ import annotations

import hashlib
from pathlib import Path

from autograder.pipeline.course import Course
from autograder.pipeline.progress import Progress


def release(course: Course, chapters: list[str] | None = None, db: str | None = None,
            progress: bool = False) -> list[str]:
    """Write ``release/<chapter>/<chapter>.ipynb`` for each chapter (all by default).

    nbgrader's ``GenerateAssignment`` converter runs in this process, with the course's
    ``nbgrader_config.py``, as ``nbgrader generate_assignment --force`` would (one interpreter for
    all chapters, instead of one per chapter).

    Args:
        course: The course checkout.
        chapters: Chapter names; all chapters when None.
        db: Gradebook URL. Instructors release into their gradebook; the book build passes a
            throwaway one so that building the site never touches a real gradebook.
        progress: Draw a progress bar on stderr.

    Returns:
        The chapters released.
    """
    chapters = chapters or course.chapters()
    for chapter in chapters:
        if not course.source_notebook(chapter).exists():
            raise FileNotFoundError(f"no instructor source {course.source_notebook(chapter)}")
    bar = Progress(len(chapters), "chapters released", note="importing nbgrader") if progress else None
    for chapter in chapters:
        course.run_converter("GenerateAssignment", chapter, db=db, force=True)
        stamp(course, chapter, db)
        if bar:
            bar.step(chapter)
    return chapters


def changed(course: Course, db: str | None = None) -> list[str]:
    """The chapters whose student edition is missing or older than their source: the instructor
    source, its folder's other files, ``nbgrader_config.py`` or the release's preprocessors
    (:mod:`autograder.pipeline.site.lab_markdown`) changed since they were released
    into this gradebook."""
    return [c for c in course.chapters() if _read(_stamp_path(course, c, db)) != _digest(course, c)]


def stamp(course: Course, chapter: str, db: str | None = None) -> None:
    """Record what ``chapter`` was released from, into which gradebook."""
    path = _stamp_path(course, chapter, db)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_digest(course, chapter))


def _stamp_path(course: Course, chapter: str, db: str | None) -> Path:
    url = db or course.gradebook_url
    return course.build / "released" / hashlib.sha256(url.encode()).hexdigest()[:16] / chapter


def _digest(course: Course, chapter: str) -> str:
    digest = hashlib.sha256()
    config = course.root / "nbgrader_config.py"
    digest.update(config.read_bytes() if config.exists() else b"")
    # The release's own preprocessors write part of the student edition.
    digest.update(Path(__file__).with_name("lab_markdown.py").read_bytes())
    source = course.source_notebook(chapter).parent
    for path in sorted(p for p in source.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    released = course.release_notebook(chapter)
    digest.update(released.read_bytes() if released.exists() else b"missing")
    return digest.hexdigest()


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""

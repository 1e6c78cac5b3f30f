"""Generate the student edition of each chapter with nbgrader's own ``GenerateAssignment``.

The student edition runs from the top to the bottom, in JupyterLab's *Run All Cells* as with
``jupyter nbconvert --execute``: :class:`RunsThrough` (a preprocessor of the release,
``nbgrader_config.py``) tags every answer and test cell ``raises-exception``. JupyterLab then sends
those cells with ``stop_on_error`` off, so the kernel does not abort the cells queued after one that
raised, and nbclient (nbconvert, jupyter-book) lets them raise; an unanswered test cell still
raises "not answered yet", so it still scores nothing wherever it is graded (nbgrader records its
error whatever the tags say; the sandbox judges its own probes). The instructor sources carry no
such tag: nbval still fails on any cell of theirs that raises unexpectedly.

An answer to give as values (a dict whose entries read ``...``) needs no code, so its cell does
not raise ``NotImplementedError`` either: the placeholders are what says "not answered yet".
And the notebook carries the ``language_info`` its kernel reports, so that JupyterLab, which
writes that record into the notebook when the kernel starts, opens it unmodified.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from autograder.pipeline.course import Course, is_answer_cell, is_test_cell
from autograder.pipeline.progress import Progress

RUNS_ON = "raises-exception"


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


def kernel_language_info() -> dict:
    """The ``language_info`` record this environment's IPython kernel reports (Python's version with it)."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


def without_stub_raise(source: str) -> str:
    """An answer cell's source without the closing ``raise NotImplementedError()`` when the cell
    already assigns its answer as placeholders (a dict of ``...``, or ``...``); unchanged otherwise."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return source
    if not body or not _raises_not_implemented(body[-1]) or not any(_placeholders(node) for node in body[:-1]):
        return source
    lines = source.splitlines()
    kept = lines[: body[-1].lineno - 1]
    stub = set(_stub_comments())
    while kept and (not kept[-1].strip() or kept[-1].strip() in stub):  # nbgrader's "# YOUR CODE HERE"
        kept.pop()
    return "\n".join(kept + lines[body[-1].end_lineno:]).rstrip()


def _stub_comments() -> list[str]:
    """The comment lines of the stub nbgrader writes where a Python solution was."""
    from nbgrader.preprocessors import ClearSolutions

    stub = ClearSolutions().code_stub.get("python", "")
    return [line.strip() for line in stub.splitlines() if line.strip().startswith("#")]


def _raises_not_implemented(node: ast.stmt) -> bool:
    error = node.exc if isinstance(node, ast.Raise) else None
    if isinstance(error, ast.Call):
        error = error.func
    return isinstance(error, ast.Name) and error.id == "NotImplementedError"


def _placeholders(node: ast.stmt) -> bool:
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    values = value.values if isinstance(value, ast.Dict) else [value]
    return any(isinstance(v, ast.Constant) and v.value is Ellipsis for v in values)


def runs_through(notebook: nbformat.NotebookNode) -> None:
    """Make a student edition run from the top to the bottom (see the module's docstring), in place."""
    notebook.metadata["language_info"] = kernel_language_info()
    for cell in notebook.cells:
        if cell.cell_type != "code" or not (is_answer_cell(cell) or is_test_cell(cell)):
            continue
        tags = cell.metadata.setdefault("tags", [])
        if RUNS_ON not in tags:
            tags.append(RUNS_ON)
        if is_answer_cell(cell):
            cell.source = without_stub_raise(cell.source)


class RunsThrough(Preprocessor):
    """nbgrader preprocessor, after ``ClearSolutions`` and before the checksums: :func:`runs_through`."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess(self, nb, resources):
        runs_through(nb)
        return nb, resources


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
    digest.update(Path(__file__).read_bytes())
    source = course.source_notebook(chapter).parent
    for path in sorted(p for p in source.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    released = course.release_notebook(chapter)
    digest.update(released.read_bytes() if released.exists() else b"missing")
    return digest.hexdigest()


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""

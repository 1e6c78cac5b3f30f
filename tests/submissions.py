"""Build learner submissions from a student edition: answers filled in, cells tampered with."""

from __future__ import annotations

from pathlib import Path

import nbformat

from autograder.pipeline.course import Course, nbgrader_meta


def submit(course: Course, chapter: str, student: str, answers: dict[str, str]) -> Path:
    """Write ``submitted/<student>/<chapter>/<chapter>.ipynb`` with the given answer sources."""
    notebook = nbformat.read(course.release_notebook(chapter), as_version=4)
    for cell in notebook.cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return write_submission(course, chapter, student, notebook)


def write_submission(course: Course, chapter: str, student: str, notebook: nbformat.NotebookNode) -> Path:
    path = course.submitted / student / chapter / f"{chapter}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def edit_cell(path: Path, grade_id: str, source: str | None) -> None:
    """Replace a cell's source, or delete the cell when ``source`` is None."""
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        if nbgrader_meta(cell).get("grade_id") == grade_id:
            if source is None:
                del notebook.cells[index]
            else:
                cell.source = source
            break
    else:
        raise KeyError(grade_id)
    nbformat.write(notebook, path)

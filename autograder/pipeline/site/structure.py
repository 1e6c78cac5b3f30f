"""Structure rules every chapter and closed-book companion notebook follows; each problem names the cell."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from autograder.engine import cases
from autograder.engine.gradeid import COMPANION, test_cell
from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta, read_notebook

COMPANION_SECTIONS = ("## Rules",)
SECTIONS = (
    "## 1. Why it matters",
    "## 2. How it works",
    "## 3. Reproduce closed-book",
    "## 4. Exercises",
    "## 5. Traps",
    "## 6. Self-test",
    "## 7. Completion criterion",
)


def problems(path: Path) -> list[str]:
    """Every way the notebook breaks the course's structure rules (empty when it follows them)."""
    notebook = read_notebook(path)
    chapter = path.stem
    found: list[str] = []
    ids = Counter()
    for index, cell in enumerate(notebook.cells):
        meta = nbgrader_meta(cell)
        where = f"cell {index} ({cell.cell_type}, starting {cell.source[:40]!r})"
        grade_id = meta.get("grade_id")
        if not grade_id:
            found.append(f"{where}: no nbgrader grade_id")
            continue
        ids[grade_id] += 1
        if meta.get("schema_version") != 3:
            found.append(f"{where} {grade_id!r}: nbgrader schema_version is not 3")
        if not is_answer_cell(cell) and not meta.get("locked"):
            found.append(f"{where} {grade_id!r}: instruction and test cells must be locked")
        if is_test_cell(cell) and "points" not in meta:
            found.append(f"{where} {grade_id!r}: a test cell must carry points")
    found += [f"grade_id {gid!r} is used by {n} cells" for gid, n in ids.items() if n > 1]
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    headings = COMPANION_SECTIONS if chapter.endswith(COMPANION) else SECTIONS
    found += [f"section {heading!r} is missing" for heading in headings if heading not in text]
    found += _test_cells_match_cases(notebook, chapter)
    return found


def _test_cells_match_cases(notebook, chapter: str) -> list[str]:
    """Each exercise has a visible and a hidden test cell worth the sum of their cases' points."""
    cells = {nbgrader_meta(c).get("grade_id"): c for c in notebook.cells}
    found = []
    for grade_id, exercise in cases.exercises(chapter).items():
        if grade_id not in cells or not is_answer_cell(cells[grade_id]):
            found.append(f"exercise {grade_id!r}: no answer cell")
            continue
        for hidden in (False, True):
            name = test_cell(grade_id, hidden)
            cell = cells.get(name)
            if cell is None or not is_test_cell(cell):
                found.append(f"exercise {grade_id!r}: no test cell {name!r}")
                continue
            points = float(nbgrader_meta(cell).get("points") or 0)
            if points != exercise.points(hidden):
                found.append(
                    f"test cell {name!r}: worth {points:g} points, its cases sum to "
                    f"{exercise.points(hidden)}"
                )
            call = f'grade("{grade_id}", {exercise.answer}' + (", hidden=True)" if hidden else ")")
            if call not in cell.source:
                found.append(f"test cell {name!r}: does not call {call}")
    return found

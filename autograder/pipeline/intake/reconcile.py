"""Grade what can be graded: a submission's cells matched back to the chapter's student edition.

JupyterLab copies a cell's nbgrader metadata with the cell, so a learner who pastes a copy of an
answer or test cell hands in a notebook with one grade id twice; nbgrader then refuses the whole
notebook (every exercise 0) and says only that its metadata is wrong. The same happens when an
answer cell's metadata was edited. :func:`reconcile` returns the notebook to grade instead:

- a copy of an answer cell (or of any cell other than a test cell) loses its nbgrader metadata and
  runs where it stands as a cell the learner added, so the later definition wins, as when the
  notebook runs top to bottom;
- of a test cell that appears more than once, one copy is kept and the others are removed (the
  exercise scores 0 all the same: :mod:`autograder.pipeline.intake.integrity` flags it);
- an answer cell whose metadata changed, or was removed, is recognised by its grade id, its cell
  id or its position between the cells around it, and its metadata is restored from the edition;
- a locked cell's metadata and type are restored from the edition (nbgrader restores its source);
- a deleted test cell is put back after the cell before it (its exercise scores 0).

Every change but the test-cell ones (which :mod:`autograder.pipeline.intake.integrity` reports) comes
with a reason an instructor can act on. The learner's file as submitted is kept (:func:`store`):
the integrity check and every later run read that, never the reconciled copy.
"""

from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta

ORIGINALS = ".originals"


@dataclass
class Reconciled:
    """The notebook to grade, and what was changed to make it gradable."""

    notebook: nbformat.NotebookNode
    findings: list[tuple[str, str]] = field(default_factory=list)
    changed: bool = False


def reconcile(submission: nbformat.NotebookNode, edition: nbformat.NotebookNode) -> Reconciled:
    """The notebook to grade from ``submission``, matched cell by cell to the student ``edition``.

    Returns:
        The reconciled notebook (``submission`` is not modified) and ``(grade_id, reason)`` for
        every change made to a cell that is not a test cell.
    """
    released = [c for c in edition.cells if nbgrader_meta(c).get("grade_id")]
    by_id = {nbgrader_meta(c)["grade_id"]: c for c in released}
    result = Reconciled(copy.deepcopy(submission))
    owner: dict[int, str] = {}  # id() of each cell that stands for one of the edition's cells
    removed: set[int] = set()
    for grade_id, copies in _claim(result.notebook.cells, by_id).items():
        kept = _keep_one(by_id[grade_id], copies, removed, result)
        owner[id(kept)] = grade_id
    cells = result.notebook.cells = [c for c in result.notebook.cells if id(c) not in removed]
    for source in released:
        if is_answer_cell(source) and nbgrader_meta(source)["grade_id"] not in owner.values():
            _reidentify(cells, released, source, owner, result)
    for index, cell in enumerate(cells):
        grade_id = owner.get(id(cell))
        if grade_id is not None:
            cells[index] = _restored(cell, by_id[grade_id], result)
        elif "nbgrader" in cell.metadata:
            if _claims_grading(cell):
                name = nbgrader_meta(cell).get("grade_id") or "(no grade id)"
                result.findings.append((str(name), f"a cell marked for grading as {name}, which this chapter "
                                        "does not have: it runs as a cell the learner added"))
            _strip(cell)
            result.changed = True
    _put_back_tests(cells, released, result)
    return result


def _claim(cells: list, by_id: dict) -> dict[str, list]:
    """The submission's cells that carry each of the edition's grade ids, in notebook order."""
    claimed: dict[str, list] = {}
    for cell in cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in by_id:
            claimed.setdefault(grade_id, []).append(cell)
    return claimed


def _keep_one(source, copies: list, removed: set[int], result: Reconciled):
    """The copy that stands for ``source``: the one with its cell id, else the first.

    The other copies of a test cell are removed; those of any other cell run as cells the learner
    added.
    """
    keep = next((c for c in copies if c.get("id") and c.get("id") == source.get("id")), copies[0])
    others = [c for c in copies if c is not keep]
    if not others:
        return keep
    result.changed = True
    if is_test_cell(source):
        removed.update(id(c) for c in others)
        return keep
    for cell in others:
        _strip(cell)
    grade_id = nbgrader_meta(source)["grade_id"]
    what = "answer cell" if is_answer_cell(source) else "cell"
    result.findings.append((grade_id, f"the {what} {grade_id} appears {len(copies)} times (a copied cell): "
                            "the copies run as cells the learner added, so the last definition counts, "
                            "as when the notebook runs"))
    return keep


def _reidentify(cells: list, released: list, source, owner: dict, result: Reconciled) -> None:
    """Find the answer cell whose grade id was lost or changed: by cell id, else by position."""
    grade_id = nbgrader_meta(source)["grade_id"]
    free = [i for i, c in enumerate(cells) if id(c) not in owner and c.cell_type == source.cell_type]
    found = next((i for i in free if cells[i].get("id") and cells[i].get("id") == source.get("id")), None)
    how = "its cell id"
    if found is None:
        position = released.index(source)
        before = _index_of(cells, owner, [nbgrader_meta(c)["grade_id"] for c in released[:position]][::-1])
        after = _index_of(cells, owner, [nbgrader_meta(c)["grade_id"] for c in released[position + 1:]])
        low = -1 if before is None else before
        high = len(cells) if after is None else after
        found = next((i for i in free if low < i < high), None)
        how = "its position"
    if found is None:
        result.findings.append((grade_id, f"the answer cell {grade_id} is missing: its exercise's tests find "
                                "no answer"))
        return
    owner[id(cells[found])] = grade_id
    result.findings.append((grade_id, f"the answer cell {grade_id} had lost or changed its grade id; recognised by "
                            f"{how} and graded as that answer"))
    result.changed = True


def _index_of(cells: list, owner: dict, grade_ids: list[str]) -> int | None:
    """Index in ``cells`` of the first of ``grade_ids`` that a cell holds."""
    where = {g: i for i, c in enumerate(cells) if (g := owner.get(id(c)))}
    return next((where[g] for g in grade_ids if g in where), None)


def _restored(cell, source, result: Reconciled):
    """The cell with the edition's nbgrader metadata (and type, and a locked cell's source)."""
    grade_id = nbgrader_meta(source)["grade_id"]
    if is_test_cell(source):
        if cell.cell_type != "code" or cell.metadata.get("nbgrader") != source.metadata["nbgrader"] \
                or cell.source != source.source:
            result.changed = True
            return copy.deepcopy(source)
        return cell
    expected = source.metadata["nbgrader"]
    if cell.metadata.get("nbgrader") == expected and cell.cell_type == source.cell_type:
        return cell
    if is_answer_cell(source):
        changed = sorted(k for k in {*expected, *nbgrader_meta(cell)} if nbgrader_meta(cell).get(k) != expected.get(k))
        if cell.cell_type != source.cell_type:
            changed.append("cell type")
        if changed and nbgrader_meta(cell).get("grade_id") == grade_id:
            result.findings.append((grade_id, f"the answer cell {grade_id} had its nbgrader metadata changed "
                                    f"({', '.join(changed)}); restored from the chapter, the answer is graded "
                                    "as written"))
    result.changed = True
    restored = copy.deepcopy(cell)
    restored.metadata["nbgrader"] = copy.deepcopy(expected)
    if restored.cell_type != source.cell_type:
        restored = _as_type(restored, source.cell_type)
    return restored


def _as_type(cell, cell_type: str):
    make = nbformat.v4.new_code_cell if cell_type == "code" else nbformat.v4.new_markdown_cell
    remade = make(cell.source, metadata=cell.metadata)
    if cell.get("id"):
        remade["id"] = cell["id"]
    return remade


def _put_back_tests(cells: list, released: list, result: Reconciled) -> None:
    """Insert each missing test cell after the nearest cell before it in the edition."""
    for position, source in enumerate(released):
        if not is_test_cell(source):
            continue
        present = {nbgrader_meta(c).get("grade_id"): i for i, c in enumerate(cells) if nbgrader_meta(c)}
        if nbgrader_meta(source)["grade_id"] in present:
            continue
        earlier = [nbgrader_meta(c)["grade_id"] for c in released[:position]][::-1]
        anchor = next((present[g] for g in earlier if g in present), -1)
        cells.insert(anchor + 1, copy.deepcopy(source))
        result.changed = True


def _claims_grading(cell) -> bool:
    meta = nbgrader_meta(cell)
    return bool(meta.get("grade") or meta.get("solution") or meta.get("locked") or meta.get("task"))


def _strip(cell) -> None:
    cell.metadata.pop("nbgrader", None)


def original_path(submitted: Path) -> Path:
    """Where the learner's file is kept when the grader rewrote ``submitted``.

    ``submitted/.originals/<student>/<chapter>/``: inside ``submitted/`` (private to the grader,
    masked in the sandbox, copied with the submissions), under a name that is no student's and
    that nbgrader, which skips hidden folders, never grades.
    """
    student, chapter = submitted.parents[1].name, submitted.parent.name
    return submitted.parents[2] / ORIGINALS / student / chapter / submitted.name


def original_of(submitted: Path) -> Path:
    """The learner's file as submitted: the kept copy when ``submitted`` is the grader's rewrite.

    The rewrite is recognised by its hash, recorded when it was written; a file placed there
    afterwards (a new submission) is the learner's own.
    """
    kept = original_path(submitted)
    stamp = kept.with_suffix(".written.sha256")
    try:
        if stamp.read_text().strip() == hashlib.sha256(submitted.read_bytes()).hexdigest():
            return kept
    except OSError:
        pass
    return submitted


def store(submitted: Path, reconciled: Reconciled) -> None:
    """Write the reconciled notebook where nbgrader reads it; keep the learner's file as submitted.

    Idempotent: storing the same reconciliation again writes the same bytes.
    """
    kept = original_path(submitted)
    stamp = kept.with_suffix(".written.sha256")
    source = original_of(submitted)
    if not reconciled.changed:
        if source == kept:  # rules changed since: the learner's file is gradable as it is
            os.replace(kept, submitted)
            stamp.unlink(missing_ok=True)
        return
    kept.parent.mkdir(parents=True, exist_ok=True)
    if source == submitted:
        temporary = kept.with_suffix(".tmp")
        temporary.write_bytes(submitted.read_bytes())
        os.replace(temporary, kept)
    data = nbformat.writes(reconciled.notebook).encode()
    temporary = submitted.with_name(f".{submitted.name}.tmp")
    temporary.write_bytes(data)
    stamp.write_text(hashlib.sha256(data).hexdigest())
    os.replace(temporary, submitted)

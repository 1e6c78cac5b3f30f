"""Find submissions whose locked test cells were deleted, altered, retyped, copied or forged.

nbgrader restores an edited test cell from the source before it runs, and leaves a deleted one
ungraded. The course's rule is stricter and visible: a tampered test cell scores 0 for its
whole exercise, and the exercise is flagged for a human to look at. The check reads the learner's
file as submitted, even where the grader graded a reconciled copy
(:mod:`autograder.pipeline.intake.reconcile`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nbgrader.utils import compute_checksum

from autograder.engine.gradeid import exercise_of
from autograder.pipeline.course import is_test_cell, nbgrader_meta, read_notebook
from autograder.pipeline.intake.reconcile import original_of


@dataclass(frozen=True)
class Tampering:
    """One test cell of one submission that does not match the student edition."""

    grade_id: str
    exercise: str
    reason: str


def test_cell_checksums(student_edition: Path) -> dict[str, str]:
    """Checksum of every test cell of the student edition, by grade id (read once per chapter)."""
    return {
        nbgrader_meta(cell)["grade_id"]: compute_checksum(cell)
        for cell in read_notebook(student_edition).cells
        if is_test_cell(cell)
    }


def _checksum(cell) -> str | None:
    """nbgrader's checksum of a cell, or None when its metadata lacks what the checksum reads (a
    graded cell without ``points``, say): nbgrader itself would raise ``KeyError``."""
    try:
        return compute_checksum(cell)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def check_submission(expected: dict[str, str], submission: Path) -> list[Tampering]:
    """Compare every test cell of the student edition (its checksums) with the submission's copy.

    Args:
        expected: :func:`test_cell_checksums` of the student edition.
        submission: ``submitted/<student>/<chapter>/<chapter>.ipynb`` of a course root.

    Raises:
        ValueError: when the submission is not a readable notebook.
    """
    found: dict[str, list] = {}
    for cell in read_notebook(original_of(submission)).cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in expected:
            found.setdefault(grade_id, []).append(cell)
    problems = []
    for grade_id, checksum in expected.items():
        copies = found.get(grade_id, [])
        if not copies:
            problems.append(Tampering(grade_id, exercise_of(grade_id), f"the test cell {grade_id} was deleted or "
                                      "its nbgrader metadata removed: its exercise scores 0"))
        elif len(copies) > 1:
            problems.append(Tampering(grade_id, exercise_of(grade_id), f"the test cell {grade_id} appears "
                                      f"{len(copies)} times: a copied cell, or a forged one; its exercise "
                                      "scores 0, the other exercises are graded"))
        elif not is_test_cell(copies[0]) or _checksum(copies[0]) != checksum:
            problems.append(Tampering(grade_id, exercise_of(grade_id), f"the test cell {grade_id} was altered "
                                      "(its source, type or metadata differs from the chapter's): its exercise "
                                      "scores 0"))
    return problems

"""Find submissions whose locked test cells were deleted or altered.

nbgrader restores an edited test cell from the source before it runs, and leaves a deleted one
ungraded. The course's rule is stricter and visible: a tampered test cell scores 0 for its
whole exercise, and the exercise is flagged for a human to look at.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nbgrader.utils import compute_checksum

from autograder.gradeid import exercise_of
from autograder.pipeline.course import is_test_cell, nbgrader_meta, read_notebook


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


def check_submission(expected: dict[str, str], submission: Path) -> list[Tampering]:
    """Compare every test cell of the student edition (its checksums) with the submission's copy.

    Raises:
        ValueError: when the submission is not a readable notebook.
    """
    found = {}
    for cell in read_notebook(submission).cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in expected:
            found[grade_id] = cell
    problems = []
    for grade_id, checksum in expected.items():
        if grade_id not in found:
            problems.append(Tampering(grade_id, exercise_of(grade_id), "test cell deleted or its metadata removed"))
        elif not is_test_cell(found[grade_id]) or compute_checksum(found[grade_id]) != checksum:
            problems.append(Tampering(grade_id, exercise_of(grade_id), "test cell altered"))
    return problems

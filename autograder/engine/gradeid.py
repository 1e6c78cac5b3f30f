"""The grade-id grammar: which exercise, assignment and test cell a grade id names.

An exercise ``views-can-view`` is graded by the test cells ``views-can-view-tests`` (visible) and
``views-can-view-tests-hidden`` (hidden). Its chapter is the grade id's first word; a closed-book
companion ``views-closed-book`` holds exercises of the same prefix.
"""

from __future__ import annotations

TESTS = "-tests"
HIDDEN = "-hidden"
COMPANION = "-closed-book"


def test_cell(exercise: str, hidden: bool) -> str:
    """The grade id of an exercise's visible or hidden test cell."""
    return exercise + TESTS + (HIDDEN if hidden else "")


def exercise_of(grade_id: str) -> str:
    """``views-can-view-tests-hidden`` belongs to exercise ``views-can-view``."""
    return grade_id.split(TESTS, 1)[0]


def is_hidden(test_grade_id: str) -> bool:
    """True for a hidden test cell's grade id."""
    return test_grade_id.endswith(HIDDEN)


def prefix(grade_id: str) -> str:
    """The chapter prefix of any grade id: ``views`` for ``views-reproduce``."""
    return grade_id.split("-", 1)[0]


def module_of(assignment: str) -> str:
    """The module that declares an assignment's cases: ``views-closed-book`` → ``views_closed_book``."""
    return assignment.replace("-", "_")


def chapter_of(assignment: str) -> str:
    """The chapter an assignment belongs to (a companion belongs to its chapter)."""
    return assignment.removesuffix(COMPANION)


def assignment_of(module: str) -> str:
    """The assignment a case module declares: ``autograder.chapters.views_closed_book`` → ``views-closed-book``."""
    return module.rpartition(".")[2].replace("_", "-")

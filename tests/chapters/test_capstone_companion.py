"""The student edition of Chapter 7's closed-book companion gives no value its tests expect away."""

from __future__ import annotations

from typing import Any

import nbformat
import pytest
import torch

from answer_key.keys import cell_key
from autograder.engine.cases import exercises
from tests.conftest import released_copy

pytestmark = pytest.mark.nbgrader
COMPANION = "capstone-closed-book"
SEEDS = (0, 1, 20261201)


def renderings(value: Any) -> set[str]:
    """The forms of an expected value a learner could copy: repr, str, tuples without spaces,
    a tensor's printed entries; text too short to name a value is left out."""
    if value is None or isinstance(value, bool):
        return set()
    if isinstance(value, torch.Tensor):
        entries = value.detach().flatten().tolist()
        forms = {repr(value), str(value), str(value.tolist())}
        forms |= {f"{entry:.{digits}f}" for entry in entries for digits in (3, 4)}
    elif isinstance(value, dict):
        forms = {repr(value)}.union(*(renderings(item) for item in value.values()))
    elif isinstance(value, tuple | list):
        forms = {repr(value), str(value), repr(value).replace(" ", "")}.union(*(renderings(v) for v in value))
    else:
        forms = {str(value), repr(value)}
    return {form for form in forms if len(form.strip("-")) >= 5}


def expected_values() -> set[str]:
    found: set[str] = set()
    for exercise in exercises(COMPANION).values():
        for hidden in (False, True):
            for seed in SEEDS:
                for case_key in cell_key(exercise, hidden, seed).values():
                    for point in case_key.points:
                        found |= renderings(point.expected.value)
                        if point.expected.raised is not None:
                            found |= renderings(point.expected.raised[1])
    return found


@pytest.fixture(scope="module")
def student_edition(tmp_path_factory) -> nbformat.NotebookNode:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("companion") / "course", [COMPANION])
    return nbformat.read(course.release_notebook(COMPANION), as_version=4)


@pytest.fixture(scope="module")
def student_text(student_edition) -> str:
    texts = []
    for cell in student_edition.cells:
        if cell.cell_type == "markdown":
            texts.append(cell.source)
        for output in cell.get("outputs", []):
            texts += [output.get("text", ""), str(output.get("data", {})), output.get("evalue", "")]
    return "\n".join(texts)


def test_the_expected_values_are_rendered():
    values = expected_values()
    assert any("output 0 of Add" in value for value in values)
    assert any(value.startswith("tensor([[") for value in values)


def test_no_markdown_or_stored_output_of_the_student_edition_holds_an_expected_value(student_text):
    leaked = sorted(value for value in expected_values() if value in student_text)
    assert leaked == []


def test_the_student_edition_shows_the_skeleton_and_no_solution(student_edition):
    answer = next(c.source for c in student_edition.cells
                  if c.metadata["nbgrader"]["grade_id"] == "capstone-reproduce")
    for signature in ("def broken() -> None:", "def fixed() -> torch.Tensor:", "def test_regression() -> None:"):
        assert signature in answer
    assert answer.count("raise NotImplementedError()") == 3
    assert "clamp_" not in answer

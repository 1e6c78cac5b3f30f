"""Closed-book companions give nothing away: the student edition shows each task's skeleton, and
no markdown or stored output in it holds a value that a hidden check expects.

The student editions are made by ``autograd-state release <companion>``, as an instructor makes
them. A hidden case's expected value is computed by its trusted code for many seeds (inputs are
drawn per call, so each seed is another value a learner could have been shown) and rendered in
the forms a learner would copy: repr, str, tuples and lists without spaces, tensors as printed
and as lists, floats to four decimals, and for an expected error torch's message fragment. Bare
ints and bools are rendered only inside their containers: "5 dimensions" gives nothing away.

Add a companion by listing it in ``COMPANIONS``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
import torch

from autograder.engine import cases
from autograder.pipeline.cli import main
from autograder.pipeline.course import Course, is_answer_cell, nbgrader_meta
from tests.conftest import copy_course

COMPANIONS = (
    "views-closed-book", "inplace-closed-book", "detach-closed-book", "leaves-closed-book", "modules-closed-book",
    "buckets-closed-book",
)
SEEDS = range(4)


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> Course:
    """A course copy whose companions were released with the command line, into a throwaway gradebook."""
    course = copy_course(tmp_path_factory.mktemp("companions"))
    database = f"sqlite:///{course.root / 'release-gradebook.db'}"
    assert main(["--root", str(course.root), "--db", database, "release", *COMPANIONS]) == 0
    return course


def renderings(value: Any) -> Iterator[str]:
    """Every text form of an expected value that a learner could copy into an answer."""
    if type(value) is dict:
        for item in value.values():
            yield from renderings(item)
    elif type(value) is torch.Tensor:
        yield from (repr(value), str(value), *_sequence_forms(value.tolist()))
        floats = value.detach().double().flatten().tolist()
        yield from (f"{v:.4f}" for v in floats if v != int(v))
    elif type(value) in (tuple, list):
        yield from _sequence_forms(value)
        for item in value:
            if type(item) in (tuple, list, dict) or type(item) is torch.Tensor:
                yield from renderings(item)
    elif type(value) is float:
        yield from (repr(value), f"{value:.4f}")
    elif type(value) is str and len(value) >= 8:
        yield value


def _sequence_forms(value: Any) -> Iterator[str]:
    text = repr(value)
    yield from (text, text.replace(" ", ""))
    listed = repr(_as_lists(value))
    yield from (listed, listed.replace(" ", ""))


def _as_lists(value: Any) -> Any:
    return [_as_lists(v) for v in value] if type(value) in (tuple, list) else value


def hidden_values(companion: str) -> Iterator[tuple[str, str, Any]]:
    """``(grade id, case, expected value)`` of every hidden check, for a few seeds: what its key
    expects (an error as its message)."""
    from answer_key.keys import cell_key

    for grade_id, exercise in cases.exercises(companion).items():
        for seed in SEEDS:
            for name, key in cell_key(exercise, True, seed).items():
                for point in key.points:
                    expected = point.expected
                    yield grade_id, name, expected.raised[1] if expected.raised else expected.value


def public_text(notebook: nbformat.NotebookNode) -> str:
    """What the student edition shows besides code: its markdown and every stored output."""
    texts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            texts.append(cell.source)
        for output in cell.get("outputs", []):
            texts += [str(output.get("text", "")), output.get("evalue", ""), *output.get("traceback", [])]
            texts += [str(data) for data in output.get("data", {}).values()]
    return "\n".join(texts)


def leaks(text: str, companion: str) -> list[tuple[str, str, str]]:
    """``(grade id, case, rendering)`` for every hidden expected value the text shows."""
    return sorted({(grade_id, case, shown) for grade_id, case, value in hidden_values(companion)
                   for shown in renderings(value) if shown and shown in text})


def defined_names(answer: str) -> list[str]:
    """The names an exercise's answer expression reads: itself, or a dict's values."""
    tree = ast.parse(answer, mode="eval").body
    if isinstance(tree, ast.Name):
        return [tree.id]
    return [node.id for node in ast.walk(tree) if isinstance(node, ast.Name)]


def _student_edition(course: Course, companion: str) -> nbformat.NotebookNode:
    return nbformat.read(course.release_notebook(companion), as_version=4)


@pytest.mark.parametrize("companion", COMPANIONS)
def test_the_student_edition_shows_no_value_a_hidden_check_expects(released, companion):
    notebook = _student_edition(released, companion)
    assert public_text(notebook).strip(), "the student edition shows no text at all"
    assert leaks(public_text(notebook), companion) == []


@pytest.mark.parametrize("companion", COMPANIONS)
def test_the_student_edition_shows_each_answer_skeleton_and_no_solution(released, companion):
    cells = {nbgrader_meta(c).get("grade_id"): c for c in _student_edition(released, companion).cells}
    for grade_id, exercise in cases.exercises(companion).items():
        source = cells[grade_id].source
        assert is_answer_cell(cells[grade_id]) and "BEGIN SOLUTION" not in source
        assert "raise NotImplementedError" in source, grade_id
        for name in defined_names(exercise.answer):
            assert re.search(rf"^(def {name}\(|class {name}\b|{name} =)", source, re.MULTILINE), (grade_id, name)
        assert "BEGIN HIDDEN TESTS" not in cells[f"{grade_id}-tests-hidden"].source


@pytest.mark.parametrize("companion", COMPANIONS)
def test_the_leak_check_finds_a_hidden_value_pasted_into_the_page(released, companion):
    grade_id, case, shown = next((g, c, text) for g, c, value in hidden_values(companion) for text in renderings(value))
    page = public_text(_student_edition(released, companion)) + f"\n\nFor instance: {shown}\n"
    assert (grade_id, case, shown) in leaks(page, companion)


def test_values_are_rendered_the_ways_a_learner_copies_them():
    torch.set_printoptions(profile="default")  # a chapter's setup cell, run in this process by another test, may not
    forms = set(renderings(((2, 3), (3, 1), 4)))
    assert {"((2, 3), (3, 1), 4)", "((2,3),(3,1),4)", "[[2, 3], [3, 1], 4]", "(3, 1)", "(3,1)"} <= forms
    assert "4" not in forms  # a bare int says nothing
    tensor_forms = set(renderings({"grad": torch.tensor([0.5, -1.25]), "flag": True}))
    assert {"tensor([ 0.5000, -1.2500])", "[0.5,-1.25]", "-1.2500"} <= tensor_forms
    assert "True" not in tensor_forms

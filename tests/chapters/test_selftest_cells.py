"""A self-test's visible cell says what it checks: the form of each answer (a value is judged only
when graded: a verdict in the learner's kernel would tell it by trying values), and which answers
the hidden cell judges.

The sentence is read off the cases ``autograder.engine.cases.selftest`` declared, so a question
added or moved fails here until the cell says so.
"""

from __future__ import annotations

import ast

import nbformat
import pytest

from autograder.engine import cases, gradeid
from autograder.pipeline.course import Course, nbgrader_meta

COURSE = Course()
CHAPTERS = [chapter for chapter in COURSE.chapters() if f"{chapter}-selftest" in cases.exercises(chapter)]


def keys(names: list[str]) -> str:
    """``q1, q2 and q6``; a run of three or more is ``q1 to q3``."""
    numbers = [int(name.removeprefix("q")) for name in names]
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"q{run[0]} to q{run[-1]}")
        else:
            parts.extend(f"q{number}" for number in run)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def expected_docstring(grade_id: str) -> str:
    declared = cases.lookup(grade_id).cases
    by_value = [case.name for case in declared if not case.hidden and not case.form]
    by_form = [case.name.removesuffix(" (form)") for case in declared if not case.hidden and case.form]
    hidden = sorted((case.name for case in declared if case.hidden), key=lambda name: int(name[1:]))
    if not by_value and by_form == hidden:
        return f"SELFTEST: checks the kind of each answer, {keys(hidden)}; their values are judged when graded."
    said = [f"the values of {keys(by_value)}"] if by_value else []
    if by_form:
        said.append(f"the kind of {keys(by_form)}")
    text = "SELFTEST: checks " + ", and ".join(said)
    if hidden:
        text += f"; {'the value' if len(hidden) == 1 else 'the values'} of {keys(hidden)} " \
                f"{'is' if len(hidden) == 1 else 'are'} judged when graded"
    return text + "."


def visible_docstring(chapter: str) -> str:
    notebook = nbformat.read(COURSE.source_notebook(chapter), as_version=4)
    [cell] = [cell for cell in notebook.cells
              if nbgrader_meta(cell).get("grade_id") == gradeid.test_cell(f"{chapter}-selftest", hidden=False)]
    return " ".join(ast.get_docstring(ast.parse(cell.source)).split())  # wrapped to the page column


def test_the_sentence_is_read_off_the_declared_cases() -> None:
    assert keys(["q1", "q2", "q3"]) == "q1 to q3"
    assert keys(["q1", "q2", "q6"]) == "q1, q2 and q6"
    assert keys(["q3"]) == "q3"
    assert expected_docstring("buckets-selftest") == (
        "SELFTEST: checks the kind of each answer, q1 to q5; their values are judged when graded.")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_visible_cell_says_what_it_checks(chapter: str) -> None:
    assert visible_docstring(chapter) == expected_docstring(f"{chapter}-selftest")


def test_every_chapter_has_a_self_test() -> None:
    assert len(CHAPTERS) == 7, CHAPTERS

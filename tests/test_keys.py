"""A value answer's catalogued mistakes are told from what each test cell judges.

A test cell names a mistake from the entries it judges: the visible cell never sees a hidden entry.
So a model whose entries lie in both cells says per cell what it names (``PerCell``), and within
one cell no two mistakes predict the same results: the cell could not tell which one it saw.
"""

from __future__ import annotations

import pytest

from answer_key.keys import Key, Model, PerCell, key_of
from autograder.engine.cases import exercises, lookup
from autograder.pipeline.course import Course

VALUE_KEYS = sorted(grade_id for assignment in Course().chapters()
                    for grade_id, exercise in exercises(assignment).items() if key_of(exercise).values)


def entries_by_cell(grade_id: str) -> dict[str, bool]:
    """Each entry of a value answer, and whether the hidden cell judges it."""
    return {case.name: case.hidden for case in lookup(grade_id).cases if case.form is None}


def predicted(model: Model) -> dict:
    return model.answer() if callable(model.answer) else model.answer


def cells_of(grade_id: str, model: Model) -> set[bool]:
    hidden = entries_by_cell(grade_id)
    return {hidden[entry] for entry in predicted(model)}


def test_there_are_value_answers_in_every_chapter() -> None:
    assert {grade_id.split("-")[0] for grade_id in VALUE_KEYS} >= {
        "views", "inplace", "detach", "leaves", "modules", "buckets", "capstone"}


@pytest.mark.parametrize("grade_id", VALUE_KEYS)
def test_a_mistake_whose_entries_lie_in_both_cells_is_told_per_cell(grade_id: str) -> None:
    for model in key_of(lookup(grade_id)).models:
        both = cells_of(grade_id, model) == {False, True}
        assert both == isinstance(model.says, PerCell), (
            f"{grade_id}/{model.name}: entries in {'both cells' if both else 'one cell'}, says {model.says!r}")


@pytest.mark.parametrize("grade_id", VALUE_KEYS)
def test_no_two_mistakes_predict_the_same_results_in_a_cell(grade_id: str) -> None:
    known: Key = key_of(lookup(grade_id))
    hidden = entries_by_cell(grade_id)
    for cell in (False, True):
        told: dict[tuple, str] = {}
        for model in known.models:
            results = tuple(sorted((entry, repr(value)) for entry, value in predicted(model).items()
                                   if hidden[entry] == cell))
            if results:
                assert told.setdefault(results, model.name) == model.name, (
                    f"{grade_id}: {told[results]} and {model.name} predict {results} alike")


def test_each_cell_says_only_its_own_part() -> None:
    classify = next(m for m in key_of(lookup("views-classify")).models if m.name == "reshape-always-views")
    assert "contiguous" not in classify.said(hidden=False) and "reshape" not in classify.said(hidden=True)

"""A value answer's catalogued mistakes are told from what its hidden cell judges.

Every entry of a value answer is judged when graded (its visible cell takes each entry's form only,
for no points): within that cell no two mistakes predict the same results, or the cell could not
tell which one it saw.

A check that passes is judged against the reference's results alone, and the models run only to
explain a failure: each gives alone what it gives beside the other.
"""

from __future__ import annotations

import pytest

from answer_key.keys import Key, Model, _cell_key, key_of
from autograder.engine.cases import exercises, lookup
from autograder.engine.values import equal
from autograder.pipeline.course import Course

# A grading run's seed (any would do).
SEED = 4242

VALUE_KEYS = sorted(grade_id for assignment in Course().chapters()
                    for grade_id, exercise in exercises(assignment).items() if key_of(exercise).values)


def entries_by_cell(grade_id: str) -> dict[str, bool]:
    """Each entry of a value answer, and whether the hidden cell judges it."""
    return {case.name: case.hidden for case in lookup(grade_id).cases if case.form is None}


def predicted(model: Model) -> dict:
    return model.answer() if callable(model.answer) else model.answer


def test_there_are_value_answers_in_every_chapter() -> None:
    assert {grade_id.split("-")[0] for grade_id in VALUE_KEYS} >= {
        "views", "inplace", "detach", "leaves", "modules", "buckets", "capstone"}


@pytest.mark.parametrize("grade_id", VALUE_KEYS)
def test_every_entry_is_judged_when_graded_and_only_its_form_is_seen_before(grade_id: str) -> None:
    declared = lookup(grade_id).cases
    assert all(case.points == 0 and case.form for case in declared if not case.hidden), grade_id
    assert {c.name for c in declared if c.hidden} == {c.name.removesuffix(" (form)") for c in declared
                                                      if not c.hidden}, grade_id


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


def _expected_results(key) -> list[tuple]:
    return [(name, point.shown, point.expected) for name, case in key.items() for point in case.points]


@pytest.mark.parametrize("grade_id", sorted(grade_id for assignment in Course().chapters()
                                            for grade_id in exercises(assignment)))
def test_the_reference_and_the_models_alone_give_what_they_give_together(grade_id: str) -> None:
    """A learner's check that passes is judged against the reference's results alone, and the
    models run only to explain a failure, beside the reference's results kept: each must give
    what it gives when the other runs between its inputs, whatever state either leaves behind."""
    exercise = lookup(grade_id)
    predicted = False
    for hidden in (False, True):
        alone = _cell_key(exercise, hidden, SEED, models=False)
        beside = _cell_key(exercise, hidden, SEED)
        models_alone = _cell_key(exercise, hidden, SEED, reference=False)
        assert not any(point.models for case in alone.values() for point in case.points)
        predicted |= any(point.models for case in beside.values() for point in case.points)
        for name, case in beside.items():
            assert models_alone[name].says == case.says, name
            for point, guess in zip(case.points, models_alone[name].points, strict=True):
                assert point.models.keys() == guess.models.keys(), (name, point.shown)
                for model, seen in point.models.items():
                    assert (seen.raised, seen.unanswered) == (guess.models[model].raised,
                                                              guess.models[model].unanswered), (name, model)
                    assert equal(seen.value, guess.models[model].value), (name, model, point.shown)
        for (name, shown, found), (_, shown_beside, expected) in zip(
                _expected_results(alone), _expected_results(beside), strict=True):
            assert shown == shown_beside, (name, shown, shown_beside)
            assert (found.raised, found.unanswered) == (expected.raised, expected.unanswered), (name, shown)
            assert equal(found.value, expected.value), (name, shown, found.value, expected.value)
    assert predicted == bool(key_of(exercise).models)

"""Keys: the reference answer and the misconceptions' models, run on every input a check uses.

A reference is an answer as a learner would write it (a function, a class, a dict of values),
written with whatever trusted code is simplest, torch included; a model is a wrong answer that
reproduces one catalogued mistake. Both run through the observing side's own code
(:func:`autograder.engine.observe.observe_point`, the case's driver), so what they give is exactly what a
learner's answer would report in their place.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import Any

from autograder.engine import codec
from autograder.engine.cases import VISIBLE_SEED, Case, Exercise, exercises
from autograder.engine.numerics import as_observed
from autograder.engine.observe import Seen, as_sent, observe_point, seeds_for
from autograder.engine.ranks import launched_together
from autograder.engine.values import measure, show_inputs
from autograder.judging import CaseKey, CellKey, Digest, Given, PointKey

__all__ = ["Given", "Key", "Model", "cell_key", "key", "visible_keys"]


@dataclass(frozen=True)
class Model:
    """A catalogued mistake, as an answer that makes it.

    Attributes:
        name: Stable identifier of the misconception.
        answer: The wrong answer (the form the learner's takes; for a value answer, a dict of the
            wrong values it gives, for the keys where it gives one).
        says: What a learner whose results it reproduces seems to assume, completing "Your answer
            behaves as if ...": never the right rule. (Every entry of a value answer is judged in
            its hidden cell, so a model of one speaks of all the entries it gives.)
    """

    name: str
    answer: Any
    says: str


@dataclass
class Key:
    """An exercise's reference and models.

    Attributes:
        grade_id: The exercise.
        reference: The right answer, or (``values=True``) a function of no arguments returning
            the dict of right values of a value answer, or a :class:`Given` rule when the right
            result follows from facts only the answer's own run reports (a model's answer may be
            one too).
        models: The catalogued mistakes.
        values: The answer is a dict of values, checked entry by entry.
    """

    grade_id: str
    reference: Any
    models: tuple[Model, ...] = ()
    values: bool = False


_KEYS: dict[str, Key] = {}


def key(grade_id: str, reference: Any, models: tuple[Model, ...] | list[Model] = (), values: bool = False) -> Key:
    """Declare an exercise's key (at import time of its assignment's module)."""
    if grade_id in _KEYS:
        raise ValueError(f"key {grade_id!r} is declared twice")
    _KEYS[grade_id] = Key(grade_id, reference, tuple(models), values)
    return _KEYS[grade_id]


def key_of(exercise: Exercise) -> Key:
    """The key of an exercise, from the trusted module that mirrors its observing module."""
    importlib.import_module(exercise.module.replace("autograder.chapters.", "answer_key.", 1))
    return _KEYS[exercise.grade_id]


def cell_key(exercise: Exercise, hidden: bool, seed: int | None, models: bool = True) -> CellKey:
    """The key of every visible (or hidden) check of an exercise, for the inputs ``seed`` draws.

    With ``models=False`` the key may hold the reference's results only: enough to decide which
    checks pass, not to name a mistake (a key computed with the models serves too)."""
    if seed is None or seed == VISIBLE_SEED:
        if not hidden:
            return _visible_cell_key(exercise.grade_id)
    if seed is None:
        return _cell_key(exercise, hidden, seed, models)
    return _seeded_cell_key(exercise.grade_id, hidden, seed, models)


# A run's keys by (grade id, hidden, seed): whether each holds the models, and the key.
_SEEDED: OrderedDict[tuple[str, bool, int], tuple[bool, CellKey]] = OrderedDict()
_SEEDED_KEPT = 64


def _seeded_cell_key(grade_id: str, hidden: bool, seed: int, models: bool) -> CellKey:
    """A run's key for one seed, computed once per process (the last :data:`_SEEDED_KEPT` kept):
    every answer graded with that seed is judged against the same key (keys are data, and judging
    never changes them), and a key whose reference runs on real ranks costs seconds."""
    from autograder.engine.cases import lookup

    which = (grade_id, hidden, seed)
    found = _SEEDED.get(which)
    if found is None:
        found = _SEEDED[which] = (models, _cell_key(lookup(grade_id), hidden, seed, models))
    elif models and not found[0]:  # the reference's results are kept: only the models run
        found = _SEEDED[which] = (True, _with_models(found[1], _cell_key(lookup(grade_id), hidden, seed,
                                                                          reference=False)))
    _SEEDED.move_to_end(which)
    while len(_SEEDED) > _SEEDED_KEPT:
        _SEEDED.popitem(last=False)
    return found[1]


@cache
def _visible_cell_key(grade_id: str) -> CellKey:
    from autograder.engine.cases import lookup

    return _cell_key(lookup(grade_id), False, None)


def _with_models(key: CellKey, predicted: CellKey) -> CellKey:
    """A key of the reference's results with the models' predictions of another, point by point."""
    return {name: CaseKey([PointKey(point.shown, point.measure, point.expected, guess.models)
                           for point, guess in zip(case.points, predicted[name].points, strict=True)],
                          predicted[name].says) for name, case in key.items()}


def _cell_key(exercise: Exercise, hidden: bool, seed: int | None, models: bool = True,
              reference: bool = True) -> CellKey:
    known = key_of(exercise)
    seeds = seeds_for(exercise, hidden, seed)

    def every_case_key() -> CellKey:
        return {case.name: case_key(case, known, seeds[case.name], models, reference)
                for case in exercise.selected(hidden)}

    with as_observed():  # the numerics the answer's observation runs with
        if not exercise.on_ranks:
            return every_case_key()
        with launched_together(every_case_key):  # the reference's and the models' runs
            return every_case_key()


def case_key(case: Case, known: Key, seeds: list[int], models: bool = True, reference: bool = True) -> CaseKey:
    """One check's key: the reference's (``reference``) and every model's (``models``) result on
    each input it runs on."""
    points, says = [], {}
    values = _values(known.reference) if known.values and reference else None
    for seed in seeds:
        for inputs in case.draws(seed):
            shown = case.show(inputs) if case.show is not None else show_inputs(inputs)
            point = PointKey(shown, measure(inputs), Seen())
            if case.form is None:
                if reference:
                    point.expected = _expected(case, known, values, inputs)
                for model in known.models if models else ():
                    predicted = _predicted(case, model, inputs)
                    if predicted is not None:
                        point.models[model.name] = predicted
                        says[model.name] = model.says
            points.append(point)
    return CaseKey(points, says)


def _values(reference: Any) -> dict:
    return reference() if callable(reference) else reference


def _expected(case: Case, known: Key, values: dict | None, inputs: tuple) -> Seen:
    if isinstance(known.reference, Given):
        return Seen(value=Given(known.reference.rule, inputs))
    if values is not None:
        return Seen(value=Digest(codec.digest(values[inputs[0]])))
    return as_sent(observe_point(case, known.reference, inputs))


def _predicted(case: Case, model: Model, inputs: tuple) -> Seen | None:
    if isinstance(model.answer, Given):
        return Seen(value=Given(model.answer.rule, inputs))
    if case.entry:
        wrong = _values(model.answer)
        return Seen(value=Digest(codec.digest(wrong[inputs[0]]))) if inputs[0] in wrong else None
    return as_sent(observe_point(case, model.answer, inputs))


def visible_keys(assignment: str) -> dict[str, CellKey]:
    """Every visible check's key of an assignment: what a learner's installation ships."""
    return {grade_id: _visible_cell_key(grade_id) for grade_id in exercises(assignment)}


"""Exercises declared as cases, and the ``grade`` call that test cells make.

A *case* is one probe of a learner's answer, declared by name where it is written::

    can_view = exercise("views-can-view", "can_view", returns="bool", expect=view_succeeds,
                        forbid=(VIEW_CALLS,))
    can_view.case("transpose-split", "can_view(t.T, (2, 4, 4))", lambda: (base().T, (2, 4, 4)),
                  otherwise=SPLIT_MERGE)
    can_view.case("expanded-merge", "...", recipe, hidden=True, points=2, otherwise=NOT_ADJACENT)

Each case has an **inputs recipe** (deterministic, or drawing from a seeded :class:`Draw`), a
**call** into the answer (call the function the learner defined, read one entry of the value they
defined, or let a trusted *driver* exercise the answer and report plain data), the **property**
the result must have (its exact type, then the expected value computed by trusted code), its
**points**, whether it is **hidden**, the **diagnoses** of recognisable wrong results and the
**forbidden calls**, each with the message a learner reads. The exercise holds the defaults its
cases share.

A test cell is a docstring plus one call::

    \"\"\"shares_storage: views at other offsets, detach(), NumPy round trips, copies.\"\"\"
    grade("views-shares-storage", shares_storage)

``grade`` runs the visible cases (or, in the hidden test cell, the hidden ones) through the
engine (:mod:`autograder.engine`) and raises ``AssertionError`` listing each failed case:
expected, found, the misconception. Hidden cases name the misconception but never the probe.
"""

from __future__ import annotations

import importlib
import operator
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from autograder import gradeid
from autograder.draw import Draw, accepts_draw, fresh_seed
from autograder.engine import CellVerdict, Failure, answer_key, judge_cell, observe_cell
from autograder.recorder import ANY_TORCH
from autograder.values import AnswerTypeError, close, type_name

__all__ = [
    "AnswerTypeError", "Case", "Diagnosis", "Exercise", "Failure", "Forbid", "close", "exercise",
    "exercises", "grade", "lookup", "require_dict", "run", "selftest",
]

Inputs = tuple[Any, ...]


@dataclass(frozen=True)
class Diagnosis:
    """A recognisable wrong result and the misconception it suggests.

    Attributes:
        matches: Predicate on ``(found, inputs)``; true when the result shows this misconception.
            ``found`` is the returned value, or the :class:`~autograder.engine.Raised` exception
            when ``on_raise``.
        message: What the learner believes, and what is true instead.
        on_raise: The diagnosis reads an exception the answer raised, not a returned value.
    """

    matches: Callable[[Any, Inputs], bool]
    message: str
    on_raise: bool = False


def not_one_of(values: Sequence[str]) -> Diagnosis:
    """The diagnosis of a value that is none of ``values``, the only strings an answer may give."""
    allowed = tuple(values)
    quoted = [f'"{value}"' for value in allowed]
    return Diagnosis(lambda found, _inputs: found not in allowed,
                     f"each value must be one of {', '.join(quoted[:-1])} or {quoted[-1]}.")


@dataclass(frozen=True)
class Forbid:
    """Torch calls a case refuses, and what a learner who made one reads.

    Attributes:
        calls: Names as the recorder sees them (``"view"``, ``".data"``), or ``ANY_TORCH``.
        message: The misconception or rule the call breaks; ``{call}`` in it names the call made
            (``view()``, ``.data``).
    """

    calls: tuple[str, ...]
    message: str

    def refuses(self, name: str) -> bool:
        return ANY_TORCH in self.calls or name in self.calls


@dataclass(frozen=True)
class Case:
    """One probe of a learner's answer (declare it with :meth:`Exercise.case`).

    Attributes:
        exercise: Grade id of the answer cell, e.g. ``"views-can-view"``.
        name: Short stable identifier of the probe within the exercise.
        answer: The name the learner's answer cell defines.
        probe: How the call reads to a learner, e.g. ``"can_view(t.T, (2, 4, 4))"``.
        inputs: Recipe that builds the call's arguments: no parameters, or one :class:`Draw`.
        expect: Computes the expected result from the inputs, with trusted code only (a
            :class:`~autograder.engine.Raises` when torch must raise).
        returns: Name of the exact type the result must have (see ``values.validate``).
        otherwise: Misconception reported when no diagnosis matches.
        diagnoses: Specific wrong results and their misconceptions, checked in order.
        entry: True when the answer is a mapping and the case reads ``answer[key]``.
        points: Weight of the case; a test cell is worth the sum of its cases' points.
        hidden: Hidden cases decide the grade and are never shown to learners.
        forbid: Torch calls the answer must not make, each group with its message.
        call: Trusted driver ``call(answer, *inputs)`` that exercises the answer and returns what it
            observed as plain data (the ``"observation"`` kind); None calls ``answer(*inputs)``.
        agree: Whether a found result agrees with the expected one (``==`` unless given).
    """

    exercise: str
    name: str
    answer: str
    probe: str
    inputs: Callable[..., Inputs]
    expect: Callable[..., Any]
    returns: str | None
    otherwise: str
    diagnoses: tuple[Diagnosis, ...] = ()
    entry: bool = False
    points: int = 1
    hidden: bool = False
    forbid: tuple[Forbid, ...] = ()
    call: Callable[..., Any] | None = None
    agree: Callable[[Any, Any], bool] = operator.eq

    def build(self, seed: int) -> Inputs:
        """The call's arguments for a seed (a deterministic recipe ignores it)."""
        return self.inputs(Draw(seed)) if accepts_draw(self.inputs) else self.inputs()

    def watched(self) -> tuple[str, ...]:
        """Every call name the recorder must watch for this case."""
        return tuple(name for forbid in self.forbid for name in forbid.calls)


_CASE_FIELDS = {f.name for f in fields(Case)}


@dataclass
class Exercise:
    """An exercise: the answer it grades, the defaults its cases share, and its cases."""

    grade_id: str
    answer: str
    module: str
    require: Callable[[Any], None] | None = None
    defaults: dict[str, Any] = field(default_factory=dict)
    cases: list[Case] = field(default_factory=list)

    def case(self, name: str, probe: str, inputs: Callable[..., Inputs], **fields_: Any) -> Case:
        """Declare one case; keyword fields override the exercise's defaults (see :class:`Case`)."""
        unknown = set(fields_) - _CASE_FIELDS
        if unknown:
            raise TypeError(f"{self.grade_id}/{name}: unknown case fields {sorted(unknown)}")
        if any(c.name == name for c in self.cases):
            raise ValueError(f"{self.grade_id}: case {name!r} is declared twice")
        declared = Case(exercise=self.grade_id, name=name, probe=probe, inputs=inputs,
                        **{"answer": self.answer, **self.defaults, **fields_})
        self.cases.append(declared)
        return declared

    def entry(self, key: str, probe: str, **fields_: Any) -> Case:
        """Declare a case that reads ``answer[key]`` of a value answer (a dict of answers)."""
        return self.case(key, probe, lambda k=key: (k,), entry=True, **fields_)

    def selected(self, hidden: bool) -> list[Case]:
        """The visible cases, or the hidden ones."""
        return [case for case in self.cases if case.hidden == hidden]

    def points(self, hidden: bool) -> int:
        """Points of the visible (or hidden) test cell: the sum of its cases' points."""
        return sum(case.points for case in self.selected(hidden))


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    grade_id: str, name: str, require: Callable[[Any], None] | None = None, module: str | None = None,
    **defaults: Any,
) -> Exercise:
    """Register an exercise; case modules declare theirs at import time.

    Args:
        grade_id: The answer cell's grade id.
        name: The name the answer cell defines (or an expression over the learner's names).
        require: A whole-answer check run before any case (raises ``AnswerTypeError``).
        module: The declaring module (the caller's, unless given).
        **defaults: Case fields shared by every case of the exercise (``answer=`` there names the
            answer in messages when the answer is an expression).
    """
    if grade_id in _REGISTRY:
        raise ValueError(f"exercise {grade_id!r} is declared twice")
    unknown = set(defaults) - _CASE_FIELDS
    if unknown:
        raise TypeError(f"{grade_id}: unknown case fields {sorted(unknown)}")
    module = module or sys._getframe(1).f_globals["__name__"]
    _REGISTRY[grade_id] = Exercise(grade_id, name, module, require=require, defaults=defaults)
    return _REGISTRY[grade_id]


def exercises(assignment: str) -> dict[str, Exercise]:
    """All exercises of an assignment (a chapter or its closed-book companion), by grade id."""
    module = f"autograder.{gradeid.module_of(assignment)}"
    importlib.import_module(module)
    return {gid: ex for gid, ex in _REGISTRY.items() if ex.module == module}


def lookup(grade_id: str) -> Exercise:
    """The exercise with this grade id, from its chapter's module or its companion's."""
    if grade_id not in _REGISTRY:
        chapter = gradeid.prefix(grade_id)
        for module in (chapter, gradeid.module_of(chapter + gradeid.COMPANION)):
            try:
                importlib.import_module(f"autograder.{module}")
            except ModuleNotFoundError as err:
                if err.name != f"autograder.{module}":
                    raise
    if grade_id not in _REGISTRY:
        raise KeyError(f"no exercise {grade_id!r}")
    return _REGISTRY[grade_id]


def selftest(
    grade_id: str,
    expectations: Callable[[], dict[str, tuple[str, str, Any, str]]],
    hidden: Sequence[str],
    agree: Callable[[Any, Any], bool] = operator.eq,
) -> Exercise:
    """Declare a chapter's self-test: ``SELFTEST``, a dict of answers, one case per question.

    Args:
        grade_id: The self-test's grade id, e.g. ``"views-selftest"``.
        expectations: Maps each key to ``(question, result kind, expected, misconception)``; the
            expected answer is a value, or a function of no arguments that computes it from torch.
        hidden: The keys whose cases are hidden.
        agree: How a found answer is compared with the expected one.
    """
    questions = expectations()

    def expected(key: str) -> Any:
        value = expectations()[key][2]
        return value() if callable(value) else value

    declared = exercise(grade_id, "SELFTEST", require=require_dict("SELFTEST", list(questions)),
                        module=sys._getframe(1).f_globals["__name__"], expect=expected, agree=agree)
    for key, (question, kind, _expected, message) in questions.items():
        declared.entry(key, f"SELFTEST[{key!r}] ({question})", returns=kind, otherwise=message,
                       hidden=key in hidden)
    return declared


def require_dict(answer: str, keys: Sequence[str]) -> Callable[[Any], None]:
    """A whole-answer check: a plain dict with exactly these str keys."""

    def check(value: Any) -> None:
        if type(value) is not dict:
            raise AnswerTypeError(f"{answer} must be a dict, found {type_name(value)}")
        missing = [k for k in keys if k not in value]
        extra = [k for k in value if type(k) is not str or k not in keys]
        if missing or extra:
            raise AnswerTypeError(
                f"{answer} must have exactly the keys {list(keys)}; missing {missing}, "
                f"unexpected {[k if type(k) is str else type_name(k) for k in extra]}"
            )

    return check


def verdict(grade_id: str, answer: Any, hidden: bool = False, seed: int | None = None) -> CellVerdict:
    """Observe and judge one test cell's cases in this process (what ``grade`` does)."""
    ex = lookup(grade_id)
    seed = fresh_seed() if seed is None else seed
    return judge_cell(ex, hidden, observe_cell(ex, answer, hidden, seed), answer_key(ex, hidden, seed))


def run(grade_id: str, answer: Any, hidden: bool = False, seed: int | None = None) -> list[Failure]:
    """The failures of every visible (or hidden) case of an exercise."""
    return verdict(grade_id, answer, hidden, seed).failures


def grade(grade_id: str, answer: Any, hidden: bool = False) -> None:
    """The call a test cell makes: pass silently, or fail with every misconception found.

    Args:
        grade_id: The answer cell's grade id.
        answer: The value or function the learner defined.
        hidden: Run the hidden cases (only the hidden test cells do).

    Raises:
        AssertionError: listing the failed cases, expected, found and misconception, with the
            points the passing cases earned.
    """
    __tracebackhide__ = True
    message = verdict(grade_id, answer, hidden).message()
    if message is not None:
        raise AssertionError(message)

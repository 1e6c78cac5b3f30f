"""Exercises declared as cases: what is run, on which inputs, for how many points.

This is the observing half of an exercise, the half a learner's kernel and the grading sandbox
import. It says how to build a case's inputs and how to call the answer on them; it never says
what the answer should give. Expected results, the misconceptions' models and the judgment live
in the trusted package ``answer_key``, which the sandbox cannot import.

A case is declared by name where it is written::

    can_view = exercise("views-can-view", "can_view", returns="bool", bare=True)
    can_view.case("transpose-split", "can_view(t, shape)", transposed_split, points=2,
                  search=any_layout, tries=6)

Its **inputs recipe** draws from a seeded :class:`~autograder.engine.draw.Draw` (or takes no argument
for fixed inputs); a **driver** (``call=``) exercises an answer that is not a plain function of
plain values and reports plain data; ``search`` draws smaller inputs of the same family, so that a
wrong answer can be shown the smallest input on which it differs. ``hidden`` cases run only when
the submission is graded. A visible case of a closed-book companion checks only the *form* of
the result (``form=``): that the answer runs on an example and returns the right kinds.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from autograder.engine import gradeid
from autograder.engine.draw import Draw, accepts_draw, derived_seed

__all__ = ["VISIBLE_SEED", "Case", "Exercise", "exercise", "exercises", "lookup", "require_dict", "selftest"]

Inputs = tuple[Any, ...]

#: The seed of the visible checks a learner runs: the same inputs in every kernel, so that the
#: results their answers should give can ship with the course as data.
VISIBLE_SEED = 1
# Where each chapter's and companion's exercises are declared, one module per assignment.
CHAPTERS = "autograder.chapters"


class AnswerTypeError(TypeError):
    """The answer has the wrong type or shape of data, before any value is compared."""


@dataclass(frozen=True)
class Trial:
    """The pieces of grader-owned code a trial case runs a test on, by name (``TRIALS`` of the
    exercise's keys): the correct pairs the test must pass on, and the mutant it must fail on."""

    correct: tuple[str, ...]
    mutant: str


@dataclass(frozen=True)
class Case:
    """One check of a learner's answer (declare it with :meth:`Exercise.case`).

    Attributes:
        exercise: Grade id of the answer cell, e.g. ``"views-can-view"``.
        name: Short stable identifier of the check within the exercise.
        answer: The name the answer cell defines, or an expression over its names.
        subject: The name a message speaks of (``can_view``, ``STRIDES``, ``transposed``).
        probe: How the check reads, without values: ``can_view(t, shape)``, ``STRIDES['transpose']``.
        inputs: Recipe of the call's arguments: no parameters, or one :class:`Draw`.
        call: Driver ``call(answer, *inputs)`` that exercises the answer and reports plain data;
            None calls ``answer(*inputs)``.
        entry: The answer is a mapping and the check reads ``answer[key]``.
        points: Weight of the check; a test cell is worth the sum of its checks' points.
        hidden: Runs only when the submission is graded.
        returns: The kind of result an answer must give (see :data:`autograder.engine.values.KINDS`).
        agree: How a result is compared with the expected one (a name in ``values.AGREE``).
        search: Recipe of smaller inputs of the same family, drawn at growing sizes.
        tries: How many inputs the search draws.
        anchors: Recipes of inputs the check also runs on, drawn from the same seed as its own (so
            over the same drawn tensor): inputs on which the right result differs, so that no
            answer that ignores part of its input passes.
        show: How a message shows the inputs (``values.show_inputs`` unless given).
        form: For a companion's visible check: the kind of result the example must give; nothing
            else about the result is checked.
        bare: When graded, the answer cell runs in a Python without torch, NumPy or the course's
            packages; its inputs are plain data (``autograder.engine.bare.Layout`` for a tensor's shape,
            strides and offset).
        trial: The answer (a test) is run on code the grader owns (:mod:`autograder.engine.trials`):
            the sandbox's run of the notebook does not observe it; the grader runs each piece in
            a job of its own.
        allowed: The values the task allows a value answer to take (a word of three, the strings
            ``str(dtype)`` writes): any other is told what it must be, never compared.
    """

    exercise: str
    name: str
    answer: str
    subject: str
    probe: str
    inputs: Callable[..., Inputs]
    call: Callable[..., Any] | None = None
    entry: bool = False
    points: int = 1
    hidden: bool = False
    returns: str | None = None
    agree: str = "eq"
    search: Callable[..., Inputs] | None = None
    tries: int = 0
    anchors: tuple[Callable[..., Inputs], ...] = ()
    show: Callable[[Inputs], str] | None = None
    form: str | None = None
    bare: bool = False
    trial: Trial | None = None
    allowed: tuple[Any, ...] | None = None

    def build(self, seed: int) -> Inputs:
        """The case's own inputs for a seed (a fixed recipe ignores it)."""
        return self.inputs(Draw(seed)) if accepts_draw(self.inputs) else self.inputs()

    def draws(self, seed: int) -> list[Inputs]:
        """Every input the check runs on for a seed: its own, its anchors', then the search's."""
        found = [self.build(seed)]
        found += [anchor(Draw(seed)) for anchor in self.anchors]
        for index in range(self.tries if self.search is not None else 0):
            size = 1 + index // 2
            found.append(self.search(Draw(derived_seed(seed, self.exercise, self.name, index), size, index)))
        return found


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
    on_ranks: bool = False

    def case(self, name: str, probe: str, inputs: Callable[..., Inputs], **fields_: Any) -> Case:
        """Declare one case; keyword fields override the exercise's defaults (see :class:`Case`).

        Raises:
            ValueError: for a visible check worth points whose inputs draw nothing: its expected
                result would be the same on every run, and a learner's installation would carry it
                (declare it with :meth:`judged_when_graded`).
        """
        unknown = set(fields_) - _CASE_FIELDS
        if unknown:
            raise TypeError(f"{self.grade_id}/{name}: unknown case fields {sorted(unknown)}")
        if any(c.name == name for c in self.cases):
            raise ValueError(f"{self.grade_id}: case {name!r} is declared twice")
        values = {"answer": self.answer, "subject": self.answer, **self.defaults, **fields_}
        declared = Case(exercise=self.grade_id, name=name, probe=probe, inputs=inputs, **values)
        if not declared.hidden and declared.points and declared.form is None and not (
                accepts_draw(inputs) or declared.search or declared.anchors):
            raise ValueError(f"{self.grade_id}/{name}: a visible check worth points draws nothing, so its expected "
                             "result ships with the course: judge it when graded")
        self.cases.append(declared)
        return declared

    def judged_when_graded(self, name: str, probe: str, inputs: Callable[..., Inputs], **fields_: Any) -> Case:
        """Declare a check whose expected result must not ship with the course (its inputs draw
        nothing, or its answer comes from a small set that trying values would find): a visible
        check of the result's form only, for no points, and the hidden check that judges it."""
        kind = fields_.get("returns", self.defaults.get("returns"))
        self.case(f"{name} (form)", probe, inputs, **{**fields_, "form": kind or "any", "points": 0})
        return self.case(name, probe, inputs, **{**fields_, "hidden": True})

    def entry(self, key: str, probe: str, **fields_: Any) -> Case:
        """Declare the checks of ``answer[key]``, one entry of a value answer (a dict of answers): a
        visible check of its form, for no points, and a hidden check of its value.

        A value is judged only when graded: its domain is small (a word of three, a tuple of small
        ints, yes or no), so a verdict in the learner's kernel would give it away by trying values,
        and a learner's installation carries no expected value, not even a digest of one.
        """
        return self.judged_when_graded(key, probe, lambda k=key: (k,), entry=True, **fields_)

    def selected(self, hidden: bool) -> list[Case]:
        """The visible cases, or the hidden ones."""
        return [case for case in self.cases if case.hidden == hidden]

    def points(self, hidden: bool) -> int:
        """Points of the visible (or hidden) test cell: the sum of its cases' points."""
        return sum(case.points for case in self.selected(hidden))

    @property
    def subjects(self) -> list[str]:
        """The names the exercise's messages speak of, in declaration order."""
        return list(dict.fromkeys(case.subject for case in self.cases))

    @property
    def bare(self) -> bool:
        return any(case.bare for case in self.cases)


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    grade_id: str, name: str, require: Callable[[Any], None] | None = None, module: str | None = None,
    on_ranks: bool = False, **defaults: Any,
) -> Exercise:
    """Register an exercise; case modules declare theirs at import time.

    Args:
        grade_id: The answer cell's grade id.
        name: The name the answer cell defines (or an expression over the learner's names).
        require: A whole-answer check run before any case (raises :class:`AnswerTypeError`).
        module: The declaring module (the caller's, unless given).
        on_ranks: Its checks run on ranks (:mod:`autograder.engine.ranks`): a test cell's checks
            are launched together.
        **defaults: Case fields shared by every case of the exercise.
    """
    if grade_id in _REGISTRY:
        raise ValueError(f"exercise {grade_id!r} is declared twice")
    unknown = set(defaults) - _CASE_FIELDS
    if unknown:
        raise TypeError(f"{grade_id}: unknown case fields {sorted(unknown)}")
    module = module or sys._getframe(1).f_globals["__name__"]
    _REGISTRY[grade_id] = Exercise(grade_id, name, module, require=require, defaults=defaults, on_ranks=on_ranks)
    return _REGISTRY[grade_id]


def exercises(assignment: str) -> dict[str, Exercise]:
    """All exercises of an assignment (a chapter or its closed-book companion), by grade id."""
    module = f"{CHAPTERS}.{gradeid.module_of(assignment)}"
    importlib.import_module(module)
    return {gid: ex for gid, ex in _REGISTRY.items() if ex.module == module}


def lookup(grade_id: str) -> Exercise:
    """The exercise with this grade id, from its chapter's module or its companion's."""
    if grade_id not in _REGISTRY:
        chapter = gradeid.prefix(grade_id)
        for module in (chapter, gradeid.module_of(chapter + gradeid.COMPANION)):
            try:
                importlib.import_module(f"{CHAPTERS}.{module}")
            except ModuleNotFoundError as err:
                if err.name != f"{CHAPTERS}.{module}":
                    raise
    if grade_id not in _REGISTRY:
        raise KeyError(f"no exercise {grade_id!r}")
    return _REGISTRY[grade_id]


def selftest(grade_id: str, questions: dict[str, tuple[str, str | tuple[str, ...]]], agree: str = "eq") -> Exercise:
    """Declare a chapter's self-test: ``SELFTEST``, a dict of answers, one entry per question (its
    form checked in the visible cell, its value judged when graded: :meth:`Exercise.entry`).

    Args:
        grade_id: The self-test's grade id, e.g. ``"views-selftest"``.
        questions: Maps each key to ``(question, result kind)``, or ``(question, the words it allows)``.
        agree: How a found answer is compared with the expected one.
    """
    declared = exercise(grade_id, "SELFTEST", require=require_dict("SELFTEST", list(questions)),
                        module=sys._getframe(1).f_globals["__name__"], agree=agree)
    for key, (question, kind) in questions.items():
        if type(kind) is tuple:  # the words the question allows
            declared.entry(key, f"SELFTEST[{key!r}] ({question})", returns="str", allowed=kind)
        else:
            declared.entry(key, f"SELFTEST[{key!r}] ({question})", returns=kind)
    return declared


def require_dict(answer: str, keys: Sequence[str]) -> Callable[[Any], None]:
    """A whole-answer check: a plain dict with exactly these str keys."""

    def check(value: Any) -> None:
        from autograder.engine.codec import type_name

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

"""Observing an answer: run it on a case's inputs and keep what happened, as plain data.

This is all the grading sandbox does with an answer. An :class:`Observation` is a claim made by
the process that ran the answer, and is treated as such: the trusted grader decodes it as data
and judges it against what it computed itself (``answer_key``). Nothing here knows what an answer
should give.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

from autograder.engine.cases import AnswerTypeError, Case, Exercise
from autograder.engine.ranks import launched_together


@dataclass(frozen=True)
class Seen:
    """What one call of an answer did.

    Attributes:
        value: What it returned (or what the case's driver reported).
        raised: ``(type name, message)`` of the exception it raised, if any.
        unanswered: It still raised ``NotImplementedError``, or gave the skeleton's ``...``.
    """

    value: Any = None
    raised: tuple[str, str] | None = None
    unanswered: bool = False


@dataclass(frozen=True)
class CellObservation:
    """What one test cell's cases saw, before any verdict.

    Attributes:
        cases: Per case name, one :class:`Seen` per input the case ran on.
        missing: Set when the answer is not defined (the NameError's text).
        rejected: Set when the whole-answer check refused the answer (its message).
        unfinished: Set when the checks did not finish (why).
        draws: The draws of :mod:`autograder.engine.secret` made while the checks ran, by tag: kept
            by the job's supervisor when graded (never read from what the job reports).
    """

    cases: dict[str, list[Seen]] = field(default_factory=dict)
    missing: str | None = None
    rejected: str | None = None
    unfinished: str | None = None
    draws: dict[str, str] = field(default_factory=dict)


def observe_point(case: Case, answer: Any, inputs: tuple) -> Seen:
    """Call the answer (through the case's driver) on one input and record what happened. A torch
    mode the call left on is taken off when it ends (:func:`autograder.engine.facts.modes_kept`):
    nothing after it, the report's encoding included, runs under the answer's modes."""
    from autograder.engine import facts

    try:
        with warnings.catch_warnings(), facts.modes_kept():
            # nbgrader scores any stderr output as a failure; a warning is not a wrong answer.
            warnings.simplefilter("ignore")
            if case.entry:
                value = answer[inputs[0]]
            else:
                if case.subject != case.answer and type(answer) is dict:
                    answer = answer[case.subject]  # one function of an answer that defines several
                value = case.call(answer, *inputs) if case.call is not None else answer(*inputs)
    except NotImplementedError:
        return Seen(unanswered=True)
    except Exception as err:  # noqa: BLE001 - any error of the learner's code is an observation
        return Seen(raised=raised_as_data(err))
    if value is Ellipsis:
        return Seen(unanswered=True)
    return Seen(value=value)


def observe_cell(exercise: Exercise, answer: Any, seeds: dict[str, list[int]]) -> CellObservation:
    """Observe the cases named in ``seeds`` on one answer, each on the draws of its seeds."""
    if exercise.require is not None:
        try:
            exercise.require(answer)
        except AnswerTypeError as err:
            return CellObservation(rejected=str(err))
    cases = {case.name: case for case in exercise.cases}
    points = {name: [inputs for seed in case_seeds for inputs in cases[name].draws(seed)]
              for name, case_seeds in seeds.items()}

    def observe_all() -> dict[str, list[Seen]]:
        return {name: [observe_point(cases[name], answer, inputs) for inputs in drawn]
                for name, drawn in points.items()}

    if not exercise.on_ranks:
        return CellObservation(observe_all())
    with launched_together(observe_all):
        return CellObservation(observe_all())


def as_sent(seen: Seen) -> Seen:
    """A result as it reads after the trip out of the sandbox: plain data of exact types."""
    from autograder.engine import codec

    if seen.raised is not None or seen.unanswered:
        return seen
    try:
        return Seen(value=codec.decode(codec.encode(seen.value)))
    except codec.WireError as err:
        return Seen(raised=("WireError", str(err)))


def seeds_for(exercise: Exercise, hidden: bool, seed: int | None) -> dict[str, list[int]]:
    """The seeds each visible (or hidden) case runs on: the visible checks always on the
    course's visible seed, and when graded on the run's seed too; hidden checks on the run's."""
    from autograder.engine.cases import VISIBLE_SEED
    from autograder.engine.draw import accepts_draw

    if hidden and seed is None:
        raise ValueError("hidden checks run on a seed of their own")
    chosen = [] if hidden else [VISIBLE_SEED]
    if seed is not None and (hidden or seed != VISIBLE_SEED):
        chosen.append(seed)
    # A check whose inputs draw nothing is the same on every seed: it runs once.
    return {case.name: chosen if accepts_draw(case.inputs) or case.search or case.anchors else chosen[:1]
            for case in exercise.selected(hidden)}


def raised_as_data(err: BaseException) -> tuple[str, str]:
    """An exception as data: its type's name and its message (at most 2000 characters)."""
    try:
        message = str(err)
    except Exception:  # noqa: BLE001 - a hostile __str__ must not break the observation
        message = "<unprintable>"
    return type(err).__name__, message[:2000]


def resolve_answer(name: str, namespace: dict) -> Any:
    """The learner's answer: a name they defined, or an expression over their names that the
    exercise declares (trusted text, e.g. ``'{"broken": broken, "fixed": fixed}'``).

    Raises:
        NameError: when a name the answer needs is not defined.
    """
    if name.isidentifier():
        if name not in namespace:
            raise NameError(f"name {name!r} is not defined")
        return namespace[name]
    return eval(name, namespace)  # noqa: S307 - the expression is the exercise's, not the learner's


# ------------------------------------------------------------------------- bare answers
def bare_calls(exercise: Exercise, seeds: dict[str, list[int]]) -> list[dict]:
    """The calls a bare interpreter makes for these cases (see :mod:`autograder.engine.bare`)."""
    from autograder.engine.bare import encode_args

    cases = {case.name: case for case in exercise.cases}
    return [{"case": name, "answer": exercise.answer, "subject": cases[name].subject, "args": encode_args(inputs)}
            for name, case_seeds in seeds.items() for seed in case_seeds for inputs in cases[name].draws(seed)]


def bare_observation(results: list[dict], calls: list[dict]) -> CellObservation:
    """Read a bare interpreter's results (untrusted lines, in call order) as observations."""
    from autograder.engine import codec

    cases: dict[str, list[Seen]] = {}
    missing = None
    expected = [call["case"] for call in calls]
    for position, result in enumerate(results[: len(expected)]):
        if result.get("case") != expected[position]:
            break
        seen = result.get("seen")
        if type(seen) is not dict:
            break
        if type(seen.get("missing")) is str:
            missing = seen["missing"][:300]
            break
        try:
            cases.setdefault(expected[position], []).append(_bare_seen(seen, codec))
        except (codec.WireError, TypeError, ValueError):
            break
    if missing is not None:
        return CellObservation(missing=missing)
    return CellObservation(cases, unfinished=None if len(results) >= len(expected)
                           else "the answer stopped before every check had run")


def _bare_seen(seen: dict, codec: Any) -> Seen:
    if seen.get("unanswered") is True:
        return Seen(unanswered=True)
    raised = seen.get("raised")
    if raised is not None:
        if type(raised) is not list or len(raised) != 2 or not all(type(r) is str for r in raised):
            raise ValueError("malformed exception")
        return Seen(raised=(raised[0][:200], raised[1][:2000]))
    return Seen(value=codec.decode_from(seen.get("value"), [], [0]))

"""One engine judges every case, in the learner's kernel and in the grading sandbox alike.

It has two halves that share nothing but plain data:

* :func:`observe` runs an answer on a case's inputs and returns an :class:`Observation`: the
  value it returned, the exception it raised (and whether torch raised it or the answer's own
  code did), and which watched torch functions it called;
* :func:`judge` decides, from the case and an observation only, whether the case passes or which
  misconception it shows.

In a learner's kernel ``grade(...)`` runs both in one process. At grading time the sandbox runs
only :func:`observe_cell` and sends its observations as data; the trusted grader runs only
:func:`judge_cell`. They are the same functions, so a learner's Validate and the instructor's
grade cannot disagree. A test cell scores the points of the cases that pass.
"""

from __future__ import annotations

import dis
import os
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autograder.recorder import DATA, CallRecorder
from autograder.values import AnswerTypeError, short_repr, validate

if TYPE_CHECKING:
    from autograder.checks import Case, Exercise

_RAISE_OPS = frozenset({"RAISE_VARARGS", "RERAISE"})


@dataclass(frozen=True)
class Raised:
    """An exception an answer raised, as data.

    Attributes:
        type_name: The exception's class name, e.g. ``"RuntimeError"``.
        message: Its text (at most 2000 characters).
        by_torch: True when torch raised it; False when the answer's own code did (a ``raise``
            statement, or an exception built by hand).
    """

    type_name: str
    message: str
    by_torch: bool

    def __str__(self) -> str:
        return f"{self.type_name}: {self.message}"


@dataclass(frozen=True)
class Observation:
    """What one case saw an answer do: plain data only.

    Attributes:
        value: What the answer returned (or the trusted driver reported); None when it raised.
        raised: The exception it raised, if any.
        calls: The watched torch calls it made, in order of first call.
    """

    value: Any = None
    raised: Raised | None = None
    calls: tuple[str, ...] = ()


@dataclass(frozen=True)
class CellObservation:
    """What one test cell's cases saw, before any verdict.

    Attributes:
        cases: One observation per case, by case name.
        missing: Set when the answer is not defined (the NameError's text).
        rejected: Set when the whole-answer check refused the answer (its message).
        unfinished: Set when the checks did not finish (why).
    """

    cases: dict[str, Observation] = field(default_factory=dict)
    missing: str | None = None
    rejected: str | None = None
    unfinished: str | None = None


@dataclass(frozen=True)
class Raises:
    """An expected outcome that is an error: torch must raise it while the answer runs.

    Attributes:
        type_name: The exception class torch raises.
        fragment: Text its message contains.
        what: How a learner names it, e.g. ``"torch's version-counter error"``.
    """

    type_name: str
    fragment: str
    what: str

    def __repr__(self) -> str:
        return self.what

    def matches(self, raised: Raised) -> bool:
        return raised.type_name == self.type_name and self.fragment in raised.message


@dataclass
class Failure:
    """A failed case, as a learner reads it."""

    case: Case
    expected: Any
    found: Any
    misconception: str

    def describe(self) -> str:
        """Expected, found and the misconception; hidden cases keep their probe to themselves."""
        if self.case.hidden:
            return f"- a hidden check of {self.case.answer} failed.\n  Misconception: {self.misconception}"
        return (
            f"- {self.case.probe}: expected {self.expected!r}, found {_found_text(self.found)}.\n"
            f"  Misconception: {self.misconception}"
        )


@dataclass
class CaseVerdict:
    """One case's verdict: passed, or the failure and its misconception."""

    case: Case
    failure: Failure | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None

    @property
    def points(self) -> int:
        return self.case.points if self.failure is None else 0


@dataclass
class CellVerdict:
    """A test cell's verdict: the points of the cases that passed, and why the others failed."""

    exercise: Exercise
    hidden: bool
    verdicts: list[CaseVerdict]

    @property
    def earned(self) -> int:
        return sum(v.points for v in self.verdicts)

    @property
    def possible(self) -> int:
        return sum(v.case.points for v in self.verdicts)

    @property
    def failures(self) -> list[Failure]:
        return [v.failure for v in self.verdicts if v.failure is not None]

    def message(self) -> str | None:
        """The text the test cell shows when a case failed (None when all passed)."""
        failures = self.failures
        if not failures:
            return None
        lines = [
            f"{self.exercise.answer}: {len(failures)} of {len(self.verdicts)} checks failed "
            f"({self.earned} of {self.possible} points)."
        ]
        return "\n".join(lines + [failure.describe() for failure in failures])


# ------------------------------------------------------------------------------- observing
def observe(case: Case, answer: Any, seed: int) -> Observation:
    """Run one case's call on the answer and record what happened, as plain data."""
    inputs = case.build(seed)
    if case.entry:
        try:
            return Observation(value=answer[inputs[0]])
        except Exception as err:  # noqa: BLE001 - a missing entry is the learner's result
            return Observation(raised=raised_as_data(err))
    recorder = CallRecorder(case.watched()) if case.forbid else None
    try:
        with warnings.catch_warnings():
            # nbgrader scores any stderr output as a failure; a warning is not a wrong answer.
            warnings.simplefilter("ignore")
            if recorder is None:
                value = _call(case, answer, inputs)
            else:
                with recorder:
                    value = _call(case, answer, inputs)
    except Exception as err:  # noqa: BLE001 - any error of the learner's code is an observation
        return Observation(raised=raised_as_data(err), calls=tuple(recorder.calls) if recorder else ())
    return Observation(value=value, calls=tuple(recorder.calls) if recorder else ())


def _call(case: Case, answer: Any, inputs: tuple) -> Any:
    return case.call(answer, *inputs) if case.call is not None else answer(*inputs)


def observe_cell(exercise: Exercise, answer: Any, hidden: bool, seed: int) -> CellObservation:
    """Observe every visible (or hidden) case of an exercise on one answer."""
    if exercise.require is not None:
        try:
            exercise.require(answer)
        except AnswerTypeError as err:
            return CellObservation(rejected=str(err))
    return CellObservation({case.name: observe(case, answer, seed) for case in exercise.selected(hidden)})


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


def raised_as_data(err: BaseException) -> Raised:
    """An exception as data, with whether torch raised it."""
    try:
        message = str(err)
    except Exception:  # noqa: BLE001 - a hostile __str__ must not break the observation
        message = "<unprintable>"
    return Raised(type(err).__name__, message[:2000], _raised_by_torch(err))


def _raised_by_torch(err: BaseException) -> bool:
    """True when the exception started inside torch: in torch's Python code, or in compiled code
    the innermost Python frame was calling. A ``raise`` statement outside torch is the answer's."""
    tb = err.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    if os.path.abspath(code.co_filename).startswith(_torch_dir()):
        return True
    for instruction in dis.get_instructions(code):
        if instruction.offset == tb.tb_lasti:
            return instruction.opname not in _RAISE_OPS
    return False


def _torch_dir() -> str:
    import torch

    return os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


# -------------------------------------------------------------------------------- judging
def judge(case: Case, observation: Observation, inputs: tuple, expected: Any) -> CaseVerdict:
    """Decide one case from its observation; ``inputs`` and ``expected`` come from trusted code."""
    failure = _failure(case, observation, inputs, expected)
    return CaseVerdict(case, failure)


def _failure(case: Case, seen: Observation, inputs: tuple, expected: Any) -> Failure | None:
    for forbid in case.forbid:
        called = [name for name in seen.calls if forbid.refuses(name)]
        if called:
            call = ".data" if called[0] == DATA else f"{called[0]}()"
            found = "a read of .data" if called[0] == DATA else f"a call to {call}"
            return Failure(case, expected, found, forbid.message.replace("{call}", call))
    if seen.raised is not None:
        if isinstance(expected, Raises) and expected.matches(seen.raised):
            if seen.raised.by_torch:
                return None
            return Failure(case, expected, f"<{seen.raised}>", _HAND_RAISED.format(what=expected.what))
        return _diagnosed(case, expected, f"<{seen.raised}>", seen, inputs) or Failure(
            case, expected, f"<{seen.raised}>", case.otherwise)
    if not isinstance(expected, Raises) and case.returns is not None:
        try:
            validate(case.returns, seen.value)
        except AnswerTypeError as err:
            return Failure(case, expected, f"<{err}>", f"the answer has the wrong type: {err}")
        try:
            if case.agree(seen.value, expected):
                return None
        except Exception:  # noqa: BLE001 - data a comparison cannot handle is simply not the answer
            pass
    return _diagnosed(case, expected, seen.value, seen, inputs) or Failure(case, expected, seen.value, case.otherwise)


_HAND_RAISED = (
    "the error was raised by the answer's own code, not by torch: the exercise asks you to run the "
    "sequence so that torch itself raises {what}."
)


def _diagnosed(case: Case, expected: Any, found: Any, seen: Observation, inputs: tuple) -> Failure | None:
    subject = seen.raised if seen.raised is not None else seen.value
    for diagnosis in case.diagnoses:
        if diagnosis.on_raise != (seen.raised is not None):
            continue
        try:
            if diagnosis.matches(subject, inputs):
                return Failure(case, expected, found, diagnosis.message)
        except Exception:  # noqa: BLE001 - a diagnosis that cannot read the result does not apply
            continue
    return None


def judge_cell(
    exercise: Exercise,
    hidden: bool,
    seen: CellObservation,
    key: dict[str, tuple[tuple, Any]],
) -> CellVerdict:
    """Decide every case of a test cell; ``key`` maps case names to trusted (inputs, expected)."""
    verdicts = []
    for case in exercise.selected(hidden):
        inputs, expected = key[case.name]
        if seen.missing is not None:
            verdicts.append(CaseVerdict(case, Failure(case, expected, f"<NameError: {seen.missing}>", case.otherwise)))
        elif seen.rejected is not None:
            verdicts.append(CaseVerdict(case, Failure(case, expected, "<not checked>", seen.rejected)))
        elif case.name not in seen.cases:
            why = seen.unfinished or "the checks did not report this case"
            verdicts.append(CaseVerdict(case, Failure(case, expected, f"<no result: {why}>", case.otherwise)))
        else:
            verdicts.append(judge(case, seen.cases[case.name], inputs, expected))
    return CellVerdict(exercise, hidden, verdicts)


def answer_key(exercise: Exercise, hidden: bool, seed: int) -> dict[str, tuple[tuple, Any]]:
    """Trusted inputs and expected value of every visible (or hidden) case, for one seed."""
    key = {}
    for case in exercise.selected(hidden):
        inputs = case.build(seed)
        key[case.name] = inputs, case.expect(*inputs)
    return key


def _found_text(found: Any) -> str:
    return found if isinstance(found, str) and found.startswith("<") else short_repr(found)

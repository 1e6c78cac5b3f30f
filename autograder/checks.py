"""Exercises declared as cases, and the ``grade`` call that test cells make.

A *case* is one probe of a learner's answer, declared as data so that any process can
evaluate it:

* an **inputs recipe** that builds the arguments (deterministic, from nothing but torch),
* a **call** into the answer (call the function the learner defined, read one entry of the
  value the learner defined, or let a trusted *driver* exercise the answer — train a module,
  backpropagate through a function — and report what it observed as plain data),
* a **property** the result must have: first its exact type (a value that merely compares
  equal to anything is not an answer), then the expected value, computed from the inputs by
  trusted code,
* the **message** for each misconception a wrong result suggests.

A test cell in a chapter is a docstring plus one call::

    \"\"\"shares_storage: views at other offsets, detach(), NumPy round trips, copies.\"\"\"
    grade("views-shares-storage", shares_storage)

``grade`` runs the visible cases (or, in the hidden test cell that nbgrader strips from the
student edition, the hidden ones) and raises ``AssertionError`` listing, for each failed
case, what was expected, what was found and the misconception. Messages of hidden cases
name the misconception but never the probe, so feedback cannot reveal hidden tests.
"""

from __future__ import annotations

import importlib
import operator
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Inputs = tuple[Any, ...]


class AnswerTypeError(TypeError):
    """The answer has the wrong type or shape of data, before any value is compared."""


@dataclass(frozen=True)
class Diagnosis:
    """A recognisable wrong result and the misconception it suggests.

    Attributes:
        matches: Predicate on ``(found, inputs)``; true when the result shows this misconception.
        message: What the learner believes, and what is true instead.
    """

    matches: Callable[[Any, Inputs], bool]
    message: str


@dataclass(frozen=True)
class Case:
    """One probe of a learner's answer.

    Attributes:
        exercise: Grade id of the answer cell, e.g. ``"views-can-view"``.
        name: Short stable identifier of the probe within the exercise.
        answer: The name the learner's answer cell defines.
        probe: How the call reads to a learner, e.g. ``"can_view(t.T, (2, 4, 4))"``.
        inputs: Recipe that builds the call's arguments (for an entry: the key, as a 1-tuple).
        expect: Computes the expected result from the inputs, with trusted code only.
        returns: Name of the exact type the result must have (see ``validate``).
        otherwise: Misconception reported when no diagnosis matches.
        diagnoses: Specific wrong results and their misconceptions, checked in order.
        entry: True when the answer is a mapping and the case reads ``answer[key]``.
        points: Weight of the case; a test cell is worth the sum of its cases' points.
        hidden: Hidden cases decide the grade and are never shown to learners.
        forbid: Names of tensor methods the call must not use (probed with a torch function mode).
        call: Trusted driver ``call(answer, *inputs)`` that exercises the answer and returns what it
            observed as plain data (see the ``"observation"`` kind); None calls ``answer(*inputs)``.
        agree: Whether a found result agrees with the expected one; ``==`` unless given (use
            :func:`close` for floating-point tensors).
    """

    exercise: str
    name: str
    answer: str
    probe: str
    inputs: Callable[[], Inputs]
    expect: Callable[..., Any]
    returns: str
    otherwise: str
    diagnoses: tuple[Diagnosis, ...] = ()
    entry: bool = False
    points: int = 1
    hidden: bool = False
    forbid: tuple[str, ...] = ()
    call: Callable[..., Any] | None = None
    agree: Callable[[Any, Any], bool] = operator.eq


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
            f"- {self.case.probe}: expected {self.expected!r}, found {_short_repr(self.found)}.\n"
            f"  Misconception: {self.misconception}"
        )


@dataclass
class Exercise:
    """An exercise: the answer it grades and the cases that decide it."""

    grade_id: str
    answer: str
    cases: list[Case] = field(default_factory=list)
    require: Callable[[Any], None] | None = None

    def selected(self, hidden: bool) -> list[Case]:
        """The visible cases, or the hidden ones."""
        return [case for case in self.cases if case.hidden == hidden]

    def points(self, hidden: bool) -> int:
        """Points of the visible (or hidden) test cell: the sum of its cases' points."""
        return sum(case.points for case in self.selected(hidden))


_REGISTRY: dict[str, Exercise] = {}


def exercise(grade_id: str, answer: str, require: Callable[[Any], None] | None = None) -> Exercise:
    """Register an exercise; chapters declare theirs at import time."""
    if grade_id in _REGISTRY:
        raise ValueError(f"exercise {grade_id!r} is declared twice")
    _REGISTRY[grade_id] = Exercise(grade_id, answer, require=require)
    return _REGISTRY[grade_id]


def exercises(chapter: str) -> dict[str, Exercise]:
    """All exercises of a chapter, by grade id (imports the chapter's module)."""
    importlib.import_module(f"autograder.{chapter}")
    return {gid: ex for gid, ex in _REGISTRY.items() if gid.startswith(chapter + "-")}


def lookup(grade_id: str) -> Exercise:
    """The exercise with this grade id; its chapter is the grade id's first word."""
    chapter = grade_id.split("-", 1)[0]
    found = exercises(chapter)
    if grade_id not in found:
        raise KeyError(f"no exercise {grade_id!r} in chapter {chapter!r}")
    return found[grade_id]


def validate(kind: str, value: Any) -> None:
    """Check a result's exact type before its value is compared.

    Exact ``type(...) is`` checks on purpose: a subclass can override ``__eq__`` to
    compare equal to anything, and ``True`` must not pass for the integer ``1``.

    Raises:
        AnswerTypeError: naming the expected and the found type.
    """
    if kind == "bool":
        if type(value) is not bool:
            raise AnswerTypeError(f"expected a Python bool (True or False), found {_type_name(value)}")
    elif kind == "int":
        if type(value) is not int:
            raise AnswerTypeError(f"expected a Python int, found {_type_name(value)}")
    elif kind == "str":
        if type(value) is not str:
            raise AnswerTypeError(f"expected a str, found {_type_name(value)}")
    elif kind == "float":
        if type(value) is not float:
            raise AnswerTypeError(f"expected a Python float, found {_type_name(value)}")
    elif kind == "tensor":
        _require_tensor(value)
    elif kind == "observation":
        _require_plain(value)
    elif kind == "int-tuple":
        if type(value) is not tuple or not all(type(v) is int for v in value):
            raise AnswerTypeError(
                f"expected a tuple of Python ints, as t.stride() returns, found {_short_repr(value)}"
            )
    else:
        raise ValueError(f"unknown result kind {kind!r}")


def _require_tensor(value: Any) -> None:
    import torch

    # A subclass could answer every comparison through __torch_function__.
    if type(value) is not torch.Tensor:
        raise AnswerTypeError(f"expected a torch.Tensor, found {_type_name(value)}")


def _require_plain(value: Any) -> None:
    """Plain data as a driver reports it: None, bool, int, float, str, plain tensors, and
    tuples, lists and str-keyed dicts of these."""
    if value is None or type(value) in (bool, int, float, str):
        return
    if type(value) in (tuple, list):
        for item in value:
            _require_plain(item)
    elif type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise AnswerTypeError(f"expected str keys in an observation, found {_type_name(key)}")
            _require_plain(item)
    else:
        _require_tensor(value)


def close(found: Any, expected: Any, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Agreement of plain data with floating-point tolerance: tensors must match in shape and
    dtype and be ``allclose``; floats ``isclose``; containers element by element."""
    import math

    import torch

    if type(expected) is torch.Tensor:
        return (type(found) is torch.Tensor and found.shape == expected.shape and found.dtype == expected.dtype
                and bool(torch.allclose(found, expected, rtol=rtol, atol=atol, equal_nan=True)))
    if type(expected) is float:
        return type(found) is float and math.isclose(found, expected, rel_tol=rtol, abs_tol=atol)
    if type(expected) in (tuple, list):
        return (type(found) is type(expected) and len(found) == len(expected)
                and all(close(f, e, rtol, atol) for f, e in zip(found, expected, strict=True)))
    if type(expected) is dict:
        return (type(found) is dict and found.keys() == expected.keys()
                and all(close(found[k], expected[k], rtol, atol) for k in expected))
    return type(found) is type(expected) and found == expected


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

    declared = exercise(grade_id, "SELFTEST", require=require_dict("SELFTEST", list(questions)))
    for key, (question, kind, _expected, message) in questions.items():
        declared.cases.append(Case(
            exercise=grade_id, name=key, answer="SELFTEST", probe=f"SELFTEST[{key!r}] ({question})",
            inputs=lambda k=key: (k,), expect=expected, returns=kind, otherwise=message, entry=True,
            hidden=key in hidden, agree=agree,
        ))
    return declared


def require_dict(answer: str, keys: Sequence[str]) -> Callable[[Any], None]:
    """A whole-answer check: a plain dict with exactly these str keys."""

    def check(value: Any) -> None:
        if type(value) is not dict:
            raise AnswerTypeError(f"{answer} must be a dict, found {_type_name(value)}")
        missing = [k for k in keys if k not in value]
        extra = [k for k in value if type(k) is not str or k not in keys]
        if missing or extra:
            raise AnswerTypeError(
                f"{answer} must have exactly the keys {list(keys)}; "
                f"missing {missing}, unexpected {[k if type(k) is str else _short_repr(k) for k in extra]}"
            )

    return check


def evaluate(case: Case, answer: Any) -> Failure | None:
    """Run one case against an answer; None when it passes."""
    inputs = case.inputs()
    expected = case.expect(*inputs)
    try:
        if case.entry:
            (key,) = inputs
            found = answer[key]
        else:
            with warnings.catch_warnings():
                # nbgrader scores any stderr output as a failure; a warning is not a wrong answer.
                warnings.simplefilter("ignore")
                with _Forbidden(case.forbid) as forbidden:
                    found = case.call(answer, *inputs) if case.call is not None else answer(*inputs)
                if forbidden.called:
                    # Recorded, not only raised: the answer may have caught the exception.
                    return Failure(case, expected, f"a call to {forbidden.called}()", forbidden.message())
        validate(case.returns, found)
    except _ForbiddenCall:
        return Failure(case, expected, f"a call to {forbidden.called}()", forbidden.message())
    except AnswerTypeError as err:
        return Failure(case, expected, f"<{err}>", f"the answer has the wrong type: {err}")
    except Exception as err:  # noqa: BLE001 - any error of the learner's code is a result to report
        return Failure(case, expected, f"<{type(err).__name__}: {err}>", case.otherwise)
    if case.agree(found, expected):
        return None
    for diagnosis in case.diagnoses:
        if diagnosis.matches(found, inputs):
            return Failure(case, expected, found, diagnosis.message)
    return Failure(case, expected, found, case.otherwise)


def run(grade_id: str, answer: Any, hidden: bool = False) -> list[Failure]:
    """Evaluate every visible (or hidden) case of an exercise; returns the failures."""
    ex = lookup(grade_id)
    if ex.require is not None:
        try:
            ex.require(answer)
        except AnswerTypeError as err:
            return [
                Failure(case, case.expect(*case.inputs()), "<not checked>", str(err))
                for case in ex.selected(hidden)
            ]
    return [f for case in ex.selected(hidden) if (f := evaluate(case, answer)) is not None]


def grade(grade_id: str, answer: Any, hidden: bool = False) -> None:
    """The call a test cell makes: pass silently, or fail with every misconception found.

    Args:
        grade_id: The answer cell's grade id.
        answer: The value or function the learner defined.
        hidden: Run the hidden cases (only the hidden test cells do).

    Raises:
        AssertionError: listing the failed cases, expected, found and misconception.
    """
    __tracebackhide__ = True
    failures = run(grade_id, answer, hidden)
    if failures:
        ex = lookup(grade_id)
        total = len(ex.selected(hidden))
        lines = [f"{ex.answer}: {len(failures)} of {total} checks failed."]
        lines += [failure.describe() for failure in failures]
        raise AssertionError("\n".join(lines))


class _ForbiddenCall(Exception):
    """Raised inside the answer when it calls a method the exercise forbids."""


class _Forbidden:
    """A torch function mode that records and refuses the named tensor methods during a call."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.called = ""
        self.mode = None

    def message(self) -> str:
        return (
            f"the answer calls {self.called}(), which the exercise asks you to predict from shape "
            "and stride alone, without trying it."
        )

    def __enter__(self) -> _Forbidden:
        if self.names:
            from torch.overrides import TorchFunctionMode

            recorder = self

            class Refuse(TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    name = getattr(func, "__name__", "")
                    if name in recorder.names:
                        recorder.called = recorder.called or name
                        raise _ForbiddenCall(name)
                    return func(*args, **(kwargs or {}))

            self.mode = Refuse()
            self.mode.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.mode is not None:
            self.mode.__exit__(*exc)


def _type_name(value: Any) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")


def _short_repr(value: Any, limit: int = 120) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not break the report
        text = f"<unprintable {_type_name(value)}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


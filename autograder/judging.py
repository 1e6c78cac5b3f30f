"""Judging observations against a key: the verdict of a test cell, and the message it shows.

A *key* is data: for every input a case runs on, how the input reads, how large it is, what the
reference answer gave there, and what each catalogued misconception's model gave. The trusted
grader computes keys (``answer_key``); a learner's installation carries the keys of the visible
checks only, for the inputs those checks use, with the answers to value questions as digests.
The same :func:`judge_cell` decides in the learner's kernel and in the grader, so the two cannot
disagree. The grading sandbox can neither import this module nor read any key.

What a message says follows the course's rules:

* an answer that is not there yet is "not answered yet", and nothing more;
* a wrong result is shown with the smallest input on which it differs from the reference, with
  both results, abbreviated;
* a misconception is named only when its model reproduces the learner's results on every input
  the check ran, and it is said as what the answer seems to assume; otherwise the message says
  plainly that the results match none of the catalogued mistakes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autograder.engine import codec
from autograder.engine.cases import Case, Exercise
from autograder.engine.difference import around
from autograder.engine.observe import CellObservation, Seen
from autograder.engine.values import AGREE, KINDS, TOLERANCE, brief, equal


@dataclass(frozen=True)
class Digest:
    """An expected value known only by its :func:`~autograder.engine.codec.digest`."""

    text: str

    def names(self, value: Any) -> bool:
        try:
            return codec.digest(value) == self.text
        except codec.WireError:
            return False


#: Rules over draws only the grader keeps, by name: ``rule(observation, inputs, draws) -> the
#: observation a reference (or a model) gives``. Registered by the keys (``answer_key``); the grading
#: sandbox has none.
RULES: dict[str, Callable[[Any, tuple, dict[str, str]], Any]] = {}


@dataclass(frozen=True)
class Given:
    """An expected result (or a model's prediction) that follows from draws the job's supervisor
    made and kept (:mod:`autograder.engine.secret`): for a check whose truth is drawn where no other
    process of the job can see it (which rank changed its module, and how), the rule named ``rule``
    in :data:`RULES` rebuilds it from the check point's ``inputs`` and those ``draws``, and says what
    the reference (or a model) gives there. Nothing the job reports enters the rule."""

    rule: str
    inputs: tuple = ()
    draws: tuple[tuple[str, str], ...] = ()

    def bound(self, draws: dict[str, str]) -> Given:
        """This rule with the draws the grader kept for the run."""
        return Given(self.rule, self.inputs, tuple(sorted(draws.items())))

    def on(self, found: Seen) -> Seen:
        """The result this rule expects (unresolved when it cannot tell: no draw was kept)."""
        if found.raised is not None or found.unanswered:
            return Seen(value=self)
        try:
            return Seen(value=RULES[self.rule](found.value, self.inputs, dict(self.draws)))
        except Exception:  # noqa: BLE001 - a run whose draws the grader did not keep resolves to nothing
            return Seen(value=self)

    def __repr__(self) -> str:
        return "<what the draws of your run call for>"


def _bound(key: CellKey, draws: dict[str, str]) -> CellKey:
    """A cell's key with its rules bound to the draws the grader kept for the run."""
    def bind(seen: Seen) -> Seen:
        return Seen(value=seen.value.bound(draws)) if isinstance(seen.value, Given) else seen

    return {name: CaseKey([PointKey(p.shown, p.measure, bind(p.expected), {m: bind(v) for m, v in p.models.items()})
                           for p in case.points], case.says) for name, case in key.items()}


def resolved(found: Seen, predicted: Seen) -> Seen:
    """A prediction as it reads against an observation: a :class:`Given` resolved on its facts."""
    return predicted.value.on(found) if isinstance(predicted.value, Given) else predicted


@dataclass
class PointKey:
    """What is known of one input a check runs on.

    Attributes:
        shown: The input as a message shows it.
        measure: Its size: the smallest failing input is the counterexample shown.
        expected: What the reference answer gave there.
        models: What each misconception's model gave there, by misconception name.
    """

    shown: str
    measure: int
    expected: Seen
    models: dict[str, Seen] = field(default_factory=dict)


@dataclass
class CaseKey:
    """The key of one check: its inputs' keys and what each misconception is said as."""

    points: list[PointKey]
    says: dict[str, str] = field(default_factory=dict)


CellKey = dict[str, CaseKey]


# --------------------------------------------------------------------------------- verdicts
@dataclass
class CaseVerdict:
    """One check's verdict: passed, not answered, or the line that says why it failed."""

    case: Case
    line: str | None = None
    unanswered: bool = False
    misconception: str | None = None
    judged: bool = False  # failed on a result compared with the reference (not a missing one)

    @property
    def passed(self) -> bool:
        return self.line is None and not self.unanswered

    @property
    def points(self) -> int:
        return self.case.points if self.passed else 0


@dataclass
class CellVerdict:
    """A test cell's verdict: the points of the checks that passed, and why the others failed."""

    exercise: Exercise
    hidden: bool
    verdicts: list[CaseVerdict]
    note: str | None = None
    says: dict[str, str] = field(default_factory=dict)
    catalogued: bool = False  # the checks have models of mistakes to name

    @property
    def earned(self) -> int:
        return sum(v.points for v in self.verdicts)

    @property
    def possible(self) -> int:
        return sum(v.case.points for v in self.verdicts)

    @property
    def unanswered(self) -> bool:
        """Nothing of the answer is there yet: every check is unanswered."""
        return bool(self.verdicts) and all(v.unanswered for v in self.verdicts)

    @property
    def failures(self) -> list[CaseVerdict]:
        return [v for v in self.verdicts if not v.passed]

    def message(self) -> str | None:
        """The text the test cell shows when a check failed (None when all passed)."""
        if self.note is not None:
            return self.note
        failed = self.failures
        if not failed:
            return None
        lines = _unanswered_lines(self.exercise, self.hidden, [v for v in failed if v.unanswered])
        if self.unanswered:
            return "\n".join(lines)
        wrong = [v for v in failed if not v.unanswered]
        header = (f"{self.exercise.grade_id} ({', '.join(self.exercise.subjects)}): {len(failed)} of "
                  f"{len(self.verdicts)} checks failed, {self.earned} of {self.possible} points.")
        lines += list(dict.fromkeys(f"✗ {v.line}" for v in wrong))  # checks that fail on one input say it once
        said = list(dict.fromkeys(v.misconception for v in wrong if v.misconception is not None))
        lines += [f"Your answer behaves as if {self.says[name]}" for name in said]
        if not said and self.catalogued and any(v.judged for v in wrong):
            lines.append("These results match none of the common mistakes.")
        return "\n".join([header, *lines])


def _unanswered_lines(exercise: Exercise, hidden: bool, unanswered: list[CaseVerdict]) -> list[str]:
    lines = []
    for subject in exercise.subjects:
        mine = [v for v in unanswered if v.case.subject == subject]
        if not mine:
            continue
        every = [c for c in exercise.selected(hidden) if c.subject == subject]
        if len(mine) == len(every):
            lines.append(f"`{subject}` is not answered yet.")
        else:
            lines += [f"{v.case.probe} is not answered yet." for v in mine]
    return lines


# ---------------------------------------------------------------------------------- judging
def judge_cell(exercise: Exercise, hidden: bool, seen: CellObservation, key: CellKey) -> CellVerdict:
    """Decide every visible (or hidden) check of an exercise from its observations and its key."""
    cases = exercise.selected(hidden)
    key = _bound(key, seen.draws)
    if seen.missing is not None:
        return CellVerdict(exercise, hidden, [CaseVerdict(c, line="not defined") for c in cases],
                           note=f"`{exercise.answer}` is not defined: run its answer cell ({seen.missing}).")
    if seen.rejected is not None:
        return CellVerdict(exercise, hidden, [CaseVerdict(c, line="refused") for c in cases],
                           note=f"{exercise.grade_id}: the answer is refused: {seen.rejected}")
    verdicts = [judge_case(c, seen.cases.get(c.name), key[c.name], seen.unfinished) for c in cases]
    says: dict[str, str] = {}
    # A function's results are explained together, and so are the entries of a value answer.
    groups = [[(c, v) for c, v in zip(cases, verdicts, strict=True) if c.entry]]
    groups += [[(c, v) for c, v in zip(cases, verdicts, strict=True) if c.subject == subject and not c.entry]
               for subject in exercise.subjects]
    for group in groups:
        detected = _detected([(c, seen.cases.get(c.name), key[c.name]) for c, v in group if v.judged or v.passed])
        for case, verdict in group:
            if verdict.judged:
                verdict.misconception = next((name for name in detected if _explains(case, seen.cases[case.name],
                                                                                     key[case.name], name)), None)
            says.update({name: text for name, text in key[case.name].says.items() if name in detected})
    catalogued = any(key[c.name].says for c in cases)
    return CellVerdict(exercise, hidden, verdicts, says=says, catalogued=catalogued)


def judge_case(case: Case, seen: list[Seen] | None, key: CaseKey, unfinished: str | None = None) -> CaseVerdict:
    """One check's verdict from what the answer did on each of its inputs."""
    if seen is None or len(seen) != len(key.points):
        why = unfinished or "the check did not report a result for every input"
        return CaseVerdict(case, line=f"{case.probe}: no result ({why}).")
    if any(s.unanswered for s in seen):
        return CaseVerdict(case, unanswered=True)
    if case.form is not None:
        return CaseVerdict(case, line=_form_failure(case, seen[0], key.points[0]))
    failing = [i for i, (s, p) in enumerate(zip(seen, key.points, strict=True)) if not agrees(case, s, p.expected)]
    if not failing:
        return CaseVerdict(case)
    smallest = min(failing, key=lambda i: (key.points[i].measure, i))
    # A result of the wrong kind is told its kind, not compared: it says nothing of a mistake.
    compared = any(_of_its_kind(case, seen[i]) for i in failing)
    return CaseVerdict(case, line=_counterexample(case, seen[smallest], key.points[smallest]), judged=compared)


def _of_its_kind(case: Case, found: Seen) -> bool:
    """Whether a result is of the kind the check asks for (and one of the values the task allows)."""
    if found.raised is not None:
        return True
    return _kind_test(case.returns, case.allowed)(found.value)


def _kind_test(kind: str | None, allowed: tuple | None):
    test = KINDS[kind][0] if kind is not None else (lambda _value: True)
    if allowed is None:
        return lambda value: bool(test(value))
    return lambda value: bool(test(value)) and any(type(value) is type(a) and value == a for a in allowed)


def _kind_text(kind: str | None, allowed: tuple | None) -> str:
    """What a result must be, as a message says it: its kind, or the values the task allows."""
    if allowed is not None:
        *first, last = [repr(a) for a in allowed]
        return f"{', '.join(first)} or {last}" if first else last
    return KINDS[kind][1]


def _detected(judged: list[tuple[Case, list[Seen] | None, CaseKey]]) -> list[str]:
    """The misconceptions whose models reproduce, across the checks of one answer, every result
    they predict, and that differ from the reference somewhere: in declaration order."""
    names = dict.fromkeys(name for _case, _seen, key in judged for name in key.says)
    return [name for name in names if _reproduces(name, judged)]


def _reproduces(name: str, judged: list[tuple[Case, list[Seen] | None, CaseKey]]) -> bool:
    predicted = differs = 0
    for case, seen, key in judged:
        for result, point in zip(seen or [], key.points, strict=False):
            model = point.models.get(name)
            if model is None:
                continue
            if not reproduces(case, result, model):
                return False
            predicted += 1
            differs += not agrees(case, resolved(result, model), resolved(result, point.expected))
    return predicted > 0 and differs > 0


def _explains(case: Case, seen: list[Seen], key: CaseKey, name: str) -> bool:
    """Whether a detected model predicts one of this check's wrong results."""
    return any(name in p.models and not agrees(case, s, p.expected) for s, p in zip(seen, key.points, strict=True))


def reproduces(case: Case, found: Seen, model: Seen) -> bool:
    """Whether a model's result is the learner's: equal, or agreeing as a result agrees with the
    expected one (a model may be wrong in any way, lists for tuples included)."""
    model = resolved(found, model)
    if found.raised is None and model.raised is None and not found.unanswered and not model.unanswered \
            and not isinstance(model.value, Digest):
        try:
            if equal(found.value, model.value):
                return True
        except Exception:  # noqa: BLE001
            pass
    return agrees(case, found, model)


def agrees(case: Case, found: Seen, expected: Seen) -> bool:
    """Whether a result agrees with the expected one (or with a model's prediction)."""
    expected = resolved(found, expected)
    if isinstance(expected.value, Given):
        return False
    if found.unanswered or expected.unanswered:
        return found.unanswered == expected.unanswered
    if expected.raised is not None or found.raised is not None:
        return found.raised == expected.raised
    if isinstance(expected.value, Digest):
        return expected.value.names(found.value)
    if not _kind_test(case.returns, case.allowed)(found.value):
        return False
    try:
        return bool(AGREE[case.agree](found.value, expected.value))
    except Exception:  # noqa: BLE001 - data a comparison cannot handle is simply not the answer
        return False


def _form_failure(case: Case, found: Seen, point: PointKey) -> str | None:
    where = case.probe if case.entry else f"{case.probe} on {point.shown}"
    if found.raised is not None and case.form != "raises":
        return f"{where} raised {found.raised[0]}: {_first_line(found.raised[1])}"
    if case.form in ("raises", "any"):
        return None
    allowed = case.allowed if case.form == case.returns else None
    test, text = _kind_test(case.form, allowed), _kind_text(case.form, allowed)
    if not test(found.value):
        return f"{where} is {_yours(found)}; it must be {text}." if case.entry \
            else f"{where} gave {_yours(found)}; it must give {text}."
    return None


def _counterexample(case: Case, found: Seen, point: PointKey) -> str:
    where = case.probe if case.entry else f"{case.probe} on {point.shown}"
    if not _of_its_kind(case, found):
        return f"{where}: yours is {_yours(found)}; it must be {_kind_text(case.returns, case.allowed)}."
    if case.entry:
        return f"{where}: {_yours(found)} is not right."
    yours, reference = _difference(found, resolved(found, point.expected), TOLERANCE.get(case.agree))
    return f"{where}: yours {yours}; reference {reference}."


def _difference(found: Seen, expected: Seen, tolerance: tuple[float, float] | None) -> tuple[str, str]:
    """Both results as a message shows them: around the first place they differ beyond the check's
    tolerance (the first key, index, element or character, on both sides), never cut before it."""
    if found.raised is not None and expected.raised is not None:
        if found.raised[0] != expected.raised[0]:
            return _yours(found), _yours(expected)
        yours, reference = around(found.raised[1].strip(), expected.raised[1].strip())
        return f"raised {found.raised[0]}: {yours}", f"raised {expected.raised[0]}: {reference}"
    if found.raised is None and expected.raised is None:
        return around(found.value, expected.value, tolerance)
    return _yours(found), _yours(expected)


def _yours(seen: Seen) -> str:
    if seen.raised is not None:
        return f"raised {seen.raised[0]}: {_first_line(seen.raised[1])}"
    return brief(seen.value)


def _first_line(text: str, limit: int = 160) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


# ------------------------------------------------------------------------ keys as data (the kit)
def _seen_json(seen: Seen, tensors: list) -> dict:
    if isinstance(seen.value, Digest):
        return {"digest": seen.value.text}
    if isinstance(seen.value, Given):
        raise ValueError("a learner's installation judges no check by a rule over the grader's draws")
    return {"value": codec.encode_into(seen.value, tensors), "raised": seen.raised, "unanswered": seen.unanswered}


def _seen_from(data: dict, tensors: list) -> Seen:
    if "digest" in data:
        return Seen(value=Digest(data["digest"]))
    raised = tuple(data["raised"]) if data.get("raised") is not None else None
    return Seen(codec.decode_from(data["value"], tensors, [0]), raised, bool(data.get("unanswered")))


def keys_to_json(keys: dict[str, CellKey]) -> str:
    """Visible keys of an assignment (grade id -> case name -> key) as one JSON document."""
    tensors: list = []
    data = {grade_id: {name: {"says": key.says, "points": [
        {"shown": p.shown, "measure": p.measure, "expected": _seen_json(p.expected, tensors),
         "models": {m: _seen_json(s, tensors) for m, s in p.models.items()}} for p in key.points]}
        for name, key in cell.items()} for grade_id, cell in keys.items()}
    return json.dumps(codec.attach_tensors({"keys": data}, tensors), sort_keys=True)


def keys_from_json(text: str) -> dict[str, CellKey]:
    """Read what :func:`keys_to_json` wrote."""
    message = json.loads(text)
    tensors = codec.load_tensors(message.get("tensors"))
    return {grade_id: {name: CaseKey([PointKey(p["shown"], p["measure"], _seen_from(p["expected"], tensors),
                                               {m: _seen_from(s, tensors) for m, s in p["models"].items()})
                                      for p in key["points"]], dict(key["says"]))
                       for name, key in cell.items()} for grade_id, cell in message["keys"].items()}

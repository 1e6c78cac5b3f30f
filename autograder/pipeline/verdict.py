"""The trusted checker: plans what the sandbox runs and turns what it reports into verdicts.

Runs in the instructor's process only. It reads a submission as data, decides which cells go to
the sandbox (locked cells from the student edition, answer cells and cells the learner added;
never a test cell), computes every expected value itself from the chapter's cases, and judges each
reported result exactly as :func:`autograder.checks.evaluate` would in a learner's kernel: exact
type first, then agreement, then the diagnoses. The text a failed test cell shows is the text
``grade`` raises, so the learner reads the same feedback as in their own notebook.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import nbformat

from autograder.checks import AnswerTypeError, Case, Exercise, Failure, _Forbidden, exercises, validate
from autograder.pipeline import wire
from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta
from autograder.pipeline.integrity import exercise_of

HIDDEN_SUFFIX = "-hidden"


@dataclass
class Key:
    """A chapter's trusted answer key: each case's inputs and expected value, computed once."""

    chapter: str
    exercises: dict[str, Exercise]
    expected: dict[tuple[str, str], tuple[Any, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, chapter: str) -> Key:
        key = cls(chapter, exercises(chapter))
        for grade_id, exercise in key.exercises.items():
            for case in exercise.cases:
                inputs = case.inputs()
                key.expected[grade_id, case.name] = inputs, case.expect(*inputs)
        return key


@dataclass
class TestCell:
    """A verdict on one test cell: no failures means full points."""

    grade_id: str
    message: str | None = None
    not_run: str | None = None

    def outputs(self) -> list[nbformat.NotebookNode]:
        if self.not_run is not None:
            return [nbformat.v4.new_output("error", ename="NotGraded", evalue=self.not_run,
                                           traceback=[f"NotGraded: {self.not_run}"])]
        if self.message is not None:
            return [nbformat.v4.new_output("error", ename="AssertionError", evalue=self.message,
                                           traceback=[f"AssertionError: {self.message}"])]
        return []


@dataclass
class Verdict:
    """Everything decided about one submission."""

    tests: dict[str, TestCell] = field(default_factory=dict)
    outputs: dict[str, list[nbformat.NotebookNode]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def plan(submission: nbformat.NotebookNode, student_edition: nbformat.NotebookNode, key: Key) -> dict:
    """The steps the sandbox runs for a submission, as data (see :mod:`autograder.pipeline.runner`).

    Locked code cells run as the student edition has them, whatever the submission holds; answer
    cells and cells the learner added run as submitted; a test cell becomes a probe of its
    exercise at the place it stands. A test cell whose source differs is still probed: the course
    zeroes tampered exercises separately (:mod:`autograder.pipeline.integrity`).
    """
    released = {nbgrader_meta(c).get("grade_id"): c for c in student_edition.cells if nbgrader_meta(c).get("grade_id")}
    steps, seen = [], set()
    for index, cell in enumerate(submission.cells):
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in seen:
            continue
        if grade_id in released:
            seen.add(grade_id)
            source = released[grade_id]
            if is_test_cell(source):
                if grade_id and exercise_of(grade_id) in key.exercises:
                    steps.append(_probe_step(grade_id, key.exercises[exercise_of(grade_id)]))
            elif source.cell_type == "code" and cell.cell_type == "code":
                text = cell.source if is_answer_cell(source) else source.source
                steps.append({"kind": "code", "key": grade_id, "source": text})
        elif cell.cell_type == "code":
            steps.append({"kind": "code", "key": f"#{index}", "source": cell.source})
    return {"chapter": key.chapter, "steps": steps}


def _probe_step(grade_id: str, exercise: Exercise) -> dict:
    hidden = grade_id.endswith(HIDDEN_SUFFIX)
    cases = exercise.selected(hidden)
    return {"kind": "probe", "key": grade_id, "exercise": exercise.grade_id, "answer": exercise.answer,
            "hidden": hidden, "whole": bool(cases) and all(case.entry for case in cases)}


def judge(result: dict, student_edition: nbformat.NotebookNode, key: Key) -> Verdict:
    """Verdicts on every test cell of the student edition from one sandbox result."""
    lines = _messages(result.get("report", ""))
    probes = {m["probe"]: m for m in lines if type(m.get("probe")) is str}
    cells = {m["cell"]: m for m in lines if type(m.get("cell")) is str}
    ended = any(m.get("end") is True for m in lines)
    why = result.get("reason") or (f"the notebook stopped early ({result.get('status')})" if not ended else "")
    verdict = Verdict(seconds=float(result.get("seconds", 0.0)))
    if why:
        verdict.problems.append(why)
    for grade_id, message in cells.items():
        verdict.outputs[grade_id] = _cell_outputs(message.get("outputs"))
    for cell in student_edition.cells:
        grade_id = nbgrader_meta(cell).get("grade_id", "")
        if not is_test_cell(cell):
            continue
        exercise = key.exercises.get(exercise_of(grade_id))
        if exercise is None:
            verdict.tests[grade_id] = TestCell(grade_id, not_run="this test cell has no declared cases to grade it")
            verdict.problems.append(f"{grade_id}: no declared cases")
        elif grade_id not in probes:
            verdict.tests[grade_id] = TestCell(grade_id, not_run=f"not run: {why or 'the test cell is missing'}")
        else:
            verdict.tests[grade_id] = _judge_cell(grade_id, exercise, probes[grade_id], key)
    return verdict


def _messages(report: str) -> list[dict]:
    found = []
    for line in report.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if type(message) is dict:
            found.append(message)
    return found


def _cell_outputs(outputs: Any) -> list[nbformat.NotebookNode]:
    result = []
    for out in outputs if type(outputs) is list else []:
        if type(out) is not dict:
            continue
        if type(out.get("ename")) is str:
            evalue = str(out.get("evalue", ""))
            result.append(nbformat.v4.new_output("error", ename=out["ename"], evalue=evalue,
                                                 traceback=[f"{out['ename']}: {evalue}"]))
        elif out.get("name") in ("stdout", "stderr") and type(out.get("text")) is str:
            result.append(nbformat.v4.new_output("stream", name=out["name"], text=out["text"]))
    return result


def _judge_cell(grade_id: str, exercise: Exercise, message: dict, key: Key) -> TestCell:
    hidden = grade_id.endswith(HIDDEN_SUFFIX)
    cases = exercise.selected(hidden)
    results = message.get("results") if type(message.get("results")) is list else []
    unfinished = str(message.get("failed", "the checks did not report"))[-300:].strip().splitlines()[-1:]
    outcomes: dict[str, tuple[str, Any]] = {}
    first = results[0] if results and type(results[0]) is dict else {}
    if "missing" in first:
        outcomes = {c.name: ("raised", str(first["missing"])) for c in cases}
    elif "require" in first:
        failures = [Failure(c, key.expected[exercise.grade_id, c.name][1], "<not checked>", str(first["require"]))
                    for c in cases]
        return _cell(grade_id, exercise, cases, failures)
    elif "whole" in first:
        outcomes = _entries(exercise, cases, first["whole"])
        if isinstance(outcomes, list):
            return _cell(grade_id, exercise, cases, outcomes)
    else:
        for item in results:
            if type(item) is dict and type(item.get("case")) is str:
                outcomes[item["case"]] = _outcome(item)
    failures = []
    for case in cases:
        inputs, expected = key.expected[exercise.grade_id, case.name]
        outcome = outcomes.get(case.name, ("raised", f"no result: {' '.join(unfinished)}"))
        failure = judge_case(case, inputs, expected, outcome)
        if failure is not None:
            failures.append(failure)
    return _cell(grade_id, exercise, cases, failures)


def _entries(exercise: Exercise, cases: list[Case], encoded: Any) -> dict | list[Failure]:
    """Outcomes of entry cases read from the whole answer (a dict) on the trusted side."""
    try:
        answer = wire.decode(encoded)
    except wire.WireError as err:
        answer = wire.opaque("unreadable", f"<{err}>")
    if exercise.require is not None:
        try:
            exercise.require(answer)
        except AnswerTypeError as err:
            return [Failure(c, c.expect(*c.inputs()), "<not checked>", str(err)) for c in cases]
    outcomes = {}
    for case in cases:
        try:
            outcomes[case.name] = ("value", answer[case.inputs()[0]])
        except Exception as err:  # noqa: BLE001 - a missing entry is the learner's error, as in their kernel
            outcomes[case.name] = ("raised", f"{type(err).__name__}: {err}")
    return outcomes


def _outcome(item: dict) -> tuple[str, Any]:
    if "forbidden" in item:
        return "forbidden", str(item["forbidden"])[:100]
    if "raised" in item:
        return "raised", str(item["raised"])[:2000]
    try:
        return "value", wire.decode(item)
    except wire.WireError as err:
        return "raised", f"unreadable result: {err}"


def judge_case(case: Case, inputs: Any, expected: Any, outcome: tuple[str, Any]) -> Failure | None:
    """One case's verdict, as :func:`autograder.checks.evaluate` decides it in a learner's kernel."""
    kind, found = outcome
    if kind == "forbidden":
        forbidden = _Forbidden(case.forbid)
        forbidden.called = found
        return Failure(case, expected, f"a call to {found}()", forbidden.message())
    if kind == "raised":
        return Failure(case, expected, f"<{found}>", case.otherwise)
    try:
        validate(case.returns, found)
    except AnswerTypeError as err:
        return Failure(case, expected, f"<{err}>", f"the answer has the wrong type: {err}")
    try:
        if case.agree(found, expected):
            return None
        for diagnosis in case.diagnoses:
            if diagnosis.matches(found, inputs):
                return Failure(case, expected, found, diagnosis.message)
    except Exception:  # noqa: BLE001 - data that a comparison cannot handle is simply not the answer
        pass
    return Failure(case, expected, found, case.otherwise)


def _cell(grade_id: str, exercise: Exercise, cases: list[Case], failures: list[Failure]) -> TestCell:
    if not failures:
        return TestCell(grade_id)
    lines = [f"{exercise.answer}: {len(failures)} of {len(cases)} checks failed."]
    lines += [failure.describe() for failure in failures]
    return TestCell(grade_id, message="\n".join(lines))

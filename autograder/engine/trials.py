"""Trials: a learner's test run on code the grader owns — correct pairs of ``broken``/``fixed``
and the mutants a regression test must fail on.

That code is an answer of its own (a correct ``fixed`` is a reference solution), so it lives with
the keys (``answer_key``, as ``TRIALS``: name → source defining ``broken`` and ``fixed``) and never
on the observing side. Where the keys are (the grader's own process) a trial case's driver runs
the test on every piece it names. Where they are not (the grading sandbox, a learner's kernel) the
grader runs each piece in a job of its own (:mod:`autograder.pipeline.grading.verdict`): the learner's
cells, then one unlabelled piece and the test — so no run holds a correct pair next to a mutant,
or knows which one it holds, and no cell of the learner's ever holds a reference ``fixed``.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from typing import Any

from autograder.engine.cases import Case, Exercise, Trial
from autograder.engine.observe import CellObservation, Seen, raised_as_data
from autograder.engine.reduction import names_restored, passes_with

__all__ = ["VERDICT", "TrialDriver", "assembled", "observation", "observe_trial", "owned", "piece", "pieces_of",
           "trial_driver", "verdict_on"]


def piece(source: str, namespace: dict[str, Any] | None = None) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The ``broken`` and ``fixed`` a piece's source defines, in ``namespace`` (a fresh one unless
    given): run in a test's own globals, they read the notebook's functions from there, so a test
    that stands something in for one reaches them as it reaches the learner's own pair."""
    namespace = {"__name__": "grader_piece"} if namespace is None else namespace
    exec(compile(source, "<the grader's pair>", "exec"), namespace)  # noqa: S102 - trusted source
    return namespace["broken"], namespace["fixed"]


def verdict_on(test: Callable[[], Any], source: str) -> bool:
    """Whether ``test()`` passes with the piece's ``broken`` and ``fixed`` standing for the
    learner's; the test's globals are as they were afterwards."""
    namespace = test.__globals__
    with names_restored(namespace, _bound(source)):
        return passes_with(test, *piece(source, namespace))


def _bound(source: str) -> set[str]:
    """The names a piece's top level binds (its functions and imports)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def observation(correct: list[bool], mutant: bool) -> dict[str, Any]:
    """What a trial case reports: the test's verdicts on the correct pairs and on the mutant."""
    return {"passes on correct pairs": list(correct), "passes on the mutant": mutant}


def pieces_of(case: Case) -> tuple[str, ...]:
    """Every piece a trial case runs the test on, correct pairs first."""
    assert case.trial is not None
    return (*case.trial.correct, case.trial.mutant)


def owned(module: str) -> dict[str, str]:
    """The pieces of an exercise module, from its keys (ImportError where the keys are absent)."""
    return importlib.import_module(module.replace("autograder.chapters.", "answer_key.", 1)).TRIALS


class TrialDriver:
    """A trial case's driver: the test (read from the answer by ``pick``) on each correct pair and
    on the mutant, where the keys are; :meth:`on` runs it on one piece, where they are not."""

    def __init__(self, trial: Trial, module: str, pick: Callable[[Any], Any]) -> None:
        self.trial, self.module, self.pick = trial, module, pick

    def __call__(self, answer: Any) -> dict[str, Any]:
        sources = owned(self.module)
        return observation([self.on(answer, sources[name]) for name in self.trial.correct],
                           self.on(answer, sources[self.trial.mutant]))

    def on(self, answer: Any, source: str) -> bool:
        return verdict_on(self.pick(answer), source)


def trial_driver(trial: Trial, module: str, pick: Callable[[Any], Any] = lambda answer: answer) -> TrialDriver:
    return TrialDriver(trial, module, pick)


#: The one case a trial job's observation holds: the test's verdict on its piece.
VERDICT = "verdict"


def observe_trial(exercise: Exercise, answer: Any, source: str) -> CellObservation:
    """A trial job's observation: whether the test (read from the answer as the exercise's trial
    cases read it) passed on the piece it was given."""
    case = next(c for c in exercise.cases if c.trial is not None)
    try:
        passed = case.call.on(answer, source)
    except NotImplementedError:
        return CellObservation({VERDICT: [Seen(unanswered=True)]})
    except Exception as err:  # noqa: BLE001 - a test that cannot be read from the answer is an observation
        return CellObservation({VERDICT: [Seen(raised=raised_as_data(err))]})
    return CellObservation({VERDICT: [Seen(value=passed)]})


def assembled(case: Case, verdicts: dict[str, Seen]) -> Seen:
    """A trial case's observation from its pieces' jobs (each a :class:`Seen` of the test's
    verdict), as the driver reports it where the keys are."""
    seen = [verdicts[name] for name in pieces_of(case)]
    for one in seen:
        if one.unanswered or one.raised is not None:
            return one
        if type(one.value) is not bool:
            return Seen(raised=("NotGraded", "a trial job reported no verdict"))
    *correct, mutant = (one.value for one in seen)
    return Seen(value=observation(correct, mutant))

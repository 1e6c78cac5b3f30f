"""Trials: a learner's test run on code the grader owns — correct pairs of ``broken``/``fixed``
and the mutants a regression test must fail on.

That code is an answer of its own (a correct ``fixed`` is a reference solution), so it lives with
the keys (``answer_key``, as ``TRIALS``: name → source defining ``broken`` and ``fixed``) and never
on the observing side. Where the keys are (the grader's own process) a trial case's driver runs
the test on every piece it names. Where they are not (the grading sandbox, a learner's kernel) the
grader runs each piece in a job of its own (:mod:`autograder.pipeline.grading.verdict`): the learner's
cells, then one unlabelled piece and the test — so no run holds a correct pair next to a mutant,
or knows which one it holds, and no cell of the learner's ever holds a reference ``fixed``.

A piece reaches a test compiled (:func:`compiled`): its source text is dropped before the test runs,
so no frame above the test holds it, and ``inspect`` finds no source for its functions; its
docstrings are stripped. The test can tell pieces apart by what they do (or by inspecting their
code objects), never by a label.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import Any

from autograder.engine.cases import Case, Exercise, Trial
from autograder.engine.observe import CellObservation, Seen, raised_as_data
from autograder.engine.reduction import names_restored, passes_with

__all__ = ["VERDICT", "Piece", "TrialDriver", "assembled", "compiled", "observation", "observe_trial", "owned",
           "piece", "pieces_of", "trial_driver", "verdict_on"]


@dataclass(frozen=True)
class Piece:
    """A piece of grader code, compiled: its code and the names its top level binds; no source."""

    code: CodeType
    names: frozenset[str]


def compiled(source: str) -> Piece:
    """A piece's source compiled without its docstrings (the text itself is not kept)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            node.body = node.body[1:] or [ast.Pass()]
    return Piece(compile(tree, "<the grader's pair>", "exec"), frozenset(_bound(tree)))


def piece(found: Piece, namespace: dict[str, Any] | None = None) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The ``broken`` and ``fixed`` a piece defines, in ``namespace`` (a fresh one unless given):
    run in a test's own globals, they read the notebook's functions from there, so a test that
    stands something in for one reaches them as it reaches the learner's own pair."""
    namespace = {"__name__": "grader_piece"} if namespace is None else namespace
    exec(found.code, namespace)  # noqa: S102 - trusted code
    return namespace["broken"], namespace["fixed"]


def verdict_on(test: Callable[[], Any], found: Piece) -> bool:
    """Whether ``test()`` passes with the piece's ``broken`` and ``fixed`` standing for the
    learner's; the test's globals are as they were afterwards."""
    namespace = test.__globals__
    with names_restored(namespace, found.names):
        return passes_with(test, *piece(found, namespace))


def _bound(tree: ast.Module) -> set[str]:
    """The names a piece's top level binds (its functions and imports)."""
    names = set()
    for node in tree.body:
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
        return observation([self.on(answer, compiled(sources[name])) for name in self.trial.correct],
                           self.on(answer, compiled(sources[self.trial.mutant])))

    def on(self, answer: Any, found: Piece) -> bool:
        return verdict_on(self.pick(answer), found)


def trial_driver(trial: Trial, module: str, pick: Callable[[Any], Any] = lambda answer: answer) -> TrialDriver:
    return TrialDriver(trial, module, pick)


#: The one case a trial job's observation holds: the test's verdict on its piece.
VERDICT = "verdict"


def observe_trial(exercise: Exercise, answer: Any, found: Piece) -> CellObservation:
    """A trial job's observation: whether the test (read from the answer as the exercise's trial
    cases read it) passed on the piece it was given."""
    case = next(c for c in exercise.cases if c.trial is not None)
    try:
        passed = case.call.on(answer, found)
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

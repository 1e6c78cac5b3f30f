"""In-process tests every chapter's cases run: the base of each ``tests/test_<chapter>_cases.py``.

A subclass names its chapter and the names its catalogue's answers run with. The catalogue's right
answers must pass every case, visible and hidden; each wrong one must fail with its misconception's
message; every exercise has visible and hidden cases with distinct names. Grading the same answers
through real nbgrader and the sandbox is :mod:`tests.grading`'s job.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import pytest

from autograder.checks import exercises, run
from autograder.engine import resolve_answer
from autograder.gradeid import module_of


def catalog(chapter: str):
    return importlib.import_module(f"tests.catalog.{module_of(chapter)}")


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Parametrize a :class:`ChapterCases` test by its chapter's catalogue (called from conftest)."""
    cls = metafunc.cls
    if cls is None or not issubclass(cls, ChapterCases) or not hasattr(cls, "CHAPTER"):
        return
    answers = catalog(cls.CHAPTER)
    if "right_answer" in metafunc.fixturenames:
        right = [(g, label, src) for g, entries in answers.RIGHT.items() for label, src in entries]
        metafunc.parametrize("right_answer", right, ids=[f"{g}:{label}" for g, label, _ in right])
    if "wrong_answer" in metafunc.fixturenames:
        wrong = [(g, label, src, msg) for g, entries in answers.WRONG.items() for label, src, msg in entries]
        metafunc.parametrize("wrong_answer", wrong, ids=[f"{g}:{label}" for g, label, _, _ in wrong])


class ChapterCases:
    """The in-process case tests every chapter runs; subclasses set ``CHAPTER`` and ``NAMES``."""

    CHAPTER: ClassVar[str]
    NAMES: ClassVar[dict[str, Any]]

    def answer(self, grade_id: str, label: str, source: str) -> Any:
        """The answer a catalogued source defines, as the notebook's answer cell would."""
        namespace = dict(self.NAMES)
        exec(compile(source, f"<{label}>", "exec"), namespace)
        return resolve_answer(exercises(self.CHAPTER)[grade_id].answer, namespace)

    def test_every_exercise_has_visible_and_hidden_cases(self) -> None:
        for grade_id, exercise in exercises(self.CHAPTER).items():
            assert exercise.selected(hidden=False), grade_id
            assert exercise.selected(hidden=True), grade_id
            names = [case.name for case in exercise.cases]
            assert len(names) == len(set(names)), grade_id

    def test_right_answers_pass_every_case(self, right_answer) -> None:
        grade_id, label, source = right_answer
        answer = self.answer(grade_id, label, source)
        assert run(grade_id, answer, hidden=False) == []
        assert run(grade_id, answer, hidden=True) == []

    def test_wrong_answers_fail_with_their_misconception(self, wrong_answer) -> None:
        grade_id, label, source, message = wrong_answer
        answer = self.answer(grade_id, label, source)
        failures = run(grade_id, answer, hidden=False) + run(grade_id, answer, hidden=True)
        assert failures, f"{label} earned full points"
        assert any(message in failure.misconception for failure in failures), [f.misconception for f in failures]

"""Real nbgrader autograde over a class built from a chapter's answer catalogue.

Each ``tests/test_grading_<chapter>.py`` subclasses :class:`ChapterGrading` and names its chapter.
The catalogue ``tests/catalog/<chapter>.py`` holds ``RIGHT`` and ``WRONG``: per grade id, a list of
``(label, answer source)`` and ``(label, answer source, misconception message)``. Right answers (the
reference and other spellings) must earn every point; each wrong answer must lose its exercise's
points, and its test cells' output must name its misconception.
"""

from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.checks import exercises, verdict
from autograder.engine import CellVerdict, resolve_answer
from autograder.gradeid import exercise_of, is_hidden, module_of, test_cell
from autograder.pipeline.confine import is_root
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.flags import Flag
from autograder.pipeline.grade import autograde, scores
from autograder.pipeline.sandboxed import grade_chapter
from tests.submissions import submit

SEED = 20261201


def _setup_source(course: Course, chapter: str) -> str:
    """The student edition's setup cell (its imports), which every answer runs after."""
    edition = nbformat.read(course.release_notebook(chapter), as_version=4)
    return next(c.source for c in edition.cells if nbgrader_meta(c).get("grade_id") == f"{chapter}-setup")


def _cases(decided: CellVerdict) -> list[tuple[str, bool, str | None, int]]:
    return [(v.case.name, v.passed, v.failure.misconception if v.failure else None, v.points)
            for v in decided.verdicts]


def catalog(chapter: str) -> ModuleType:
    """The answer catalogue of a chapter."""
    return importlib.import_module(f"tests.catalog.{module_of(chapter)}")


def right_students(chapter: str) -> list[str]:
    return [f"right-{i}" for i in range(max(len(v) for v in catalog(chapter).RIGHT.values()))]


def wrong_answers(chapter: str) -> list[tuple[int, str, str, str]]:
    """``(student index, grade id, label, message)`` for every catalogued wrong answer."""
    wrong = catalog(chapter).WRONG
    return [(i, g, label, msg) for g, answers in wrong.items() for i, (label, _src, msg) in enumerate(answers)]


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Parametrize a :class:`ChapterGrading` test by its chapter's catalogue (called from conftest)."""
    if metafunc.cls is None or not issubclass(metafunc.cls, ChapterGrading):
        return
    chapter = metafunc.cls.CHAPTER
    if "right_student" in metafunc.fixturenames:
        metafunc.parametrize("right_student", right_students(chapter))
    if "wrong_answer" in metafunc.fixturenames:
        cases = wrong_answers(chapter)
        metafunc.parametrize("wrong_answer", cases, ids=[f"{g}:{label}" for _i, g, label, _m in cases])


@dataclass
class Graded:
    course: Course
    chapter: str
    table: dict[str, dict[str, float]]
    flags: list[Flag]
    sources: dict[str, dict[str, str]]

    def exercise_score(self, student: str, grade_id: str) -> tuple[float, float]:
        """Points earned on one exercise (visible and hidden test cells) and its full points."""
        exercise = exercises(self.chapter)[grade_id]
        earned = sum(score for cell, score in self.table[student].items() if cell.startswith(f"{grade_id}-tests"))
        return earned, exercise.points(False) + exercise.points(True)

    def assert_full_points_except(self, student: str, zeroed: str | None = None) -> None:
        for grade_id in exercises(self.chapter):
            if grade_id != zeroed:
                earned, full = self.exercise_score(student, grade_id)
                assert earned == full, f"{student} {grade_id}: {earned}/{full}"

    def cell_outputs(self, student: str, grade_id: str) -> str:
        """Everything the exercise's test cells printed or raised in the autograded notebook."""
        path = self.course.autograded / student / self.chapter / f"{self.chapter}.ipynb"
        notebook = nbformat.read(path, as_version=4)
        texts = []
        for cell in notebook.cells:
            if nbgrader_meta(cell).get("grade_id", "").startswith(f"{grade_id}-tests"):
                for output in cell.get("outputs", []):
                    texts += [output.get("evalue", ""), *output.get("traceback", []), output.get("text", "")]
        return "\n".join(texts)


class ChapterGrading:
    """The grading tests every chapter runs; subclasses set ``CHAPTER``."""

    CHAPTER: ClassVar[str]

    @classmethod
    def reference(cls, grade_id: str) -> str:
        return catalog(cls.CHAPTER).RIGHT[grade_id][0][1]

    @classmethod
    def submit_more(cls, course: Course) -> None:
        """Extra submissions graded in the same run (tampered, broken); none by default."""

    @pytest.fixture(scope="class")
    @classmethod
    def graded(cls, released_course: Course) -> Graded:
        chapter, answers = cls.CHAPTER, catalog(cls.CHAPTER)
        grade_ids = list(exercises(chapter))
        sources = {}
        for i, student in enumerate(right_students(chapter)):
            sources[student] = {g: answers.RIGHT[g][i % len(answers.RIGHT[g])][1] for g in grade_ids}
        for i in range(max(len(v) for v in answers.WRONG.values())):
            sources[f"wrong-{i}"] = {g: answers.WRONG[g][i][1] if i < len(answers.WRONG.get(g, []))
                                     else cls.reference(g) for g in grade_ids}
        for student, answered in sources.items():
            submit(released_course, chapter, student, answered)
        cls.submit_more(released_course)
        flags = autograde(released_course, chapter)
        return Graded(released_course, chapter, scores(released_course, chapter), flags, sources)

    def test_right_spellings_earn_every_point(self, graded: Graded, right_student: str) -> None:
        graded.assert_full_points_except(right_student)

    def test_wrong_answers_lose_points_with_their_misconception(self, graded: Graded, wrong_answer) -> None:
        index, grade_id, label, message = wrong_answer
        earned, full = graded.exercise_score(f"wrong-{index}", grade_id)
        assert earned < full, f"{label} earned {earned}/{full}"
        assert message in graded.cell_outputs(f"wrong-{index}", grade_id), f"{label}: message not shown"

    def test_wrong_students_keep_points_on_the_exercises_they_got_right(self, graded: Graded) -> None:
        wrong = catalog(self.CHAPTER).WRONG
        for i in range(max(len(v) for v in wrong.values())):
            for grade_id in exercises(self.CHAPTER):
                if i >= len(wrong.get(grade_id, [])):
                    earned, full = graded.exercise_score(f"wrong-{i}", grade_id)
                    assert earned == full, (i, grade_id)

    @pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
    def test_the_sandboxed_grader_agrees_with_nbgrader_and_with_the_learners_kernel(
        self, graded: Graded, tmp_path
    ) -> None:
        """The same class, graded again by ``autograd-state grade`` (sandbox, trusted checker).

        Full marks in nbgrader exactly when full marks in the sandboxed grader (which also gives
        the passing cases' points where nbgrader gives 0); and every case's verdict, message and
        points equal those of ``grade(...)`` run on the same answer in this process."""
        copy = Course(tmp_path / "sandboxed")
        shutil.copytree(graded.course.root, copy.root, ignore=shutil.ignore_patterns("autograded", "feedback"))
        with Gradebook(copy.gradebook_url) as gradebook:
            for student in graded.table:
                gradebook.remove_submission(self.CHAPTER, student)
        outcome = grade_chapter(copy, self.CHAPTER, progress=False, seed=SEED)
        sandboxed = scores(copy, self.CHAPTER)
        assert sandboxed.keys() == graded.table.keys()
        full = {test_cell(g, hidden): ex.points(hidden) for g, ex in exercises(self.CHAPTER).items()
                for hidden in (False, True)}
        disagree = {(student, cell): (score, sandboxed[student].get(cell))
                    for student, cells in graded.table.items() for cell, score in cells.items()
                    if (score == full[cell]) != (sandboxed[student].get(cell) == full[cell])}
        assert not disagree, f"(student, cell): (nbgrader, sandbox) {disagree}"
        setup = _setup_source(copy, self.CHAPTER)
        for student, answered in graded.sources.items():
            if student not in outcome.decided:
                continue
            for grade_id, cell in outcome.decided[student].tests.items():
                exercise = exercises(self.CHAPTER)[exercise_of(grade_id)]
                namespace: dict = {"__name__": "__main__"}  # as in a notebook kernel
                exec(compile(setup + "\n" + answered[exercise.grade_id], f"<{student}>", "exec"), namespace)
                answer = resolve_answer(exercise.answer, namespace)
                mine = verdict(exercise.grade_id, answer, is_hidden(grade_id), seed=SEED)
                assert cell.verdict is not None, (student, grade_id, cell.not_run)
                assert _cases(cell.verdict) == _cases(mine), (student, grade_id)
                assert sandboxed[student][grade_id] == mine.earned, (student, grade_id)

    def test_every_exercise_has_right_and_three_wrong_answers(self) -> None:
        answers = catalog(self.CHAPTER)
        for grade_id in exercises(self.CHAPTER):
            assert answers.RIGHT.get(grade_id), f"{grade_id}: no right answer catalogued"
            if not grade_id.endswith("-selftest"):
                assert len(answers.WRONG.get(grade_id, [])) >= 3, f"{grade_id}: fewer than three wrong answers"

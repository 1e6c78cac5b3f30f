"""In-process tests every chapter's checks run: the base of each ``tests/chapters/test_<chapter>_cases.py``.

A subclass names its chapter and the names its catalogue's answers run with. The catalogue's
right answers must pass every check, visible and hidden; each wrong one must fail and name its
own misconception and no other; each exploit must score no more than the untouched answer; and
the untouched answer is told it is not answered yet, and nothing more. Grading the same answers
through real nbgrader and the sandbox is :mod:`tests.grading`'s job.
"""

from __future__ import annotations

import importlib
import linecache
import re
import sys
from typing import Any, ClassVar

import nbformat
import pytest

from autograder.engine import cases
from autograder.engine.gradeid import module_of
from autograder.pipeline.course import ROOT, nbgrader_meta

SEED = 20261201


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
    if "exploit" in metafunc.fixturenames:
        exploits = [(g, label, src) for g, entries in getattr(answers, "EXPLOITS", {}).items()
                    for label, src in entries]
        metafunc.parametrize("exploit", exploits, ids=[f"{g}:{label}" for g, label, _ in exploits])


def run_cell_source(source: str, filename: str, namespace: dict) -> None:
    """Run an answer's source as a notebook kernel would, its lines readable by ``linecache``
    (a kernel registers each cell there; a bare exercise's checks read its cell from there)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), namespace)


def student_edition_cells(chapter: str) -> dict[str, str]:
    """Each code cell of the chapter's student edition, by grade id, as nbgrader's release writes
    it (solutions replaced by its stub and the stub made to run through, hidden tests removed)."""
    from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions

    from autograder.pipeline.site.release import RunsThrough

    notebook = nbformat.read(ROOT / "notebooks" / chapter / f"{chapter}.ipynb", as_version=4)
    resources: dict = {}
    for step in (ClearSolutions(), RunsThrough(), ClearHiddenTests()):
        notebook, resources = step.preprocess(notebook, resources)
    return {nbgrader_meta(c)["grade_id"]: c.source for c in notebook.cells
            if c.cell_type == "code" and nbgrader_meta(c).get("grade_id")}


def solution_lines(chapter: str) -> list[str]:
    """The instructor's solution lines of a chapter (the ones long enough to say something)."""
    notebook = nbformat.read(ROOT / "notebooks" / chapter / f"{chapter}.ipynb", as_version=4)
    lines = []
    for cell in notebook.cells:
        for region in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", cell.source, flags=re.S):
            lines += [line.strip() for line in region.splitlines() if len(line.strip()) >= 16
                      and not line.strip().startswith("#")]
    return lines


def page_sentences(chapter: str, words: int = 8) -> list[str]:
    """The sentences of a chapter's markdown (of at least ``words`` words): its account of the rules."""
    notebook = nbformat.read(ROOT / "notebooks" / chapter / f"{chapter}.ipynb", as_version=4)
    text = " ".join(c.source.replace("\n", " ") for c in notebook.cells if c.cell_type == "markdown")
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) >= words]


class ChapterCases:
    """The in-process case tests every chapter runs; subclasses set ``CHAPTER`` and ``NAMES``."""

    CHAPTER: ClassVar[str]
    NAMES: ClassVar[dict[str, Any]]

    @pytest.fixture(autouse=True)
    def _restore_the_checks(self):
        """An exploit may rebind names of the checks' modules (a driver, ``observe_point``); the
        next test, of this chapter or another one in the same process, sees them as they were."""
        checks = [module for name, module in list(sys.modules.items())
                  if name.split(".")[0] in ("autograder", "answer_key") and module is not None]
        kept = [dict(vars(module)) for module in checks]
        yield
        for module, names in zip(checks, kept, strict=True):
            vars(module).clear()
            vars(module).update(names)

    def answer(self, grade_id: str, label: str, source: str) -> Any:
        """The answer a catalogued source defines, as the notebook's answer cell would."""
        namespace = {"__name__": "__main__", **self.NAMES}
        try:
            run_cell_source(source, f"<{self.CHAPTER}:{grade_id}:{label}>", namespace)
        except NotImplementedError:
            pass  # the student edition's stub: the cell raises, the names it set stay defined
        from autograder.engine.observe import resolve_answer

        return resolve_answer(cases.exercises(self.CHAPTER)[grade_id].answer, namespace)

    def verdicts(self, grade_id: str, answer: Any):
        from autograder.kernel import verdict

        return verdict(grade_id, answer, False, SEED), verdict(grade_id, answer, True, SEED)

    def test_every_exercise_has_visible_and_hidden_cases(self) -> None:
        for grade_id, exercise in cases.exercises(self.CHAPTER).items():
            assert exercise.selected(hidden=False), grade_id
            assert exercise.selected(hidden=True), grade_id
            names = [case.name for case in exercise.cases]
            assert len(names) == len(set(names)), grade_id

    def test_right_answers_pass_every_case(self, right_answer) -> None:
        grade_id, label, source = right_answer
        answer = self.answer(grade_id, label, source)
        for decided in self.verdicts(grade_id, answer):
            assert decided.message() is None, decided.message()

    def test_wrong_answers_fail_with_their_misconception(self, wrong_answer) -> None:
        grade_id, label, source, own = wrong_answer
        answer = self.answer(grade_id, label, source)
        visible, hidden = self.verdicts(grade_id, answer)
        assert visible.failures or hidden.failures, f"{label} earned full points"
        named = {v.misconception for cell in (visible, hidden) for v in cell.failures} - {None}
        assert named <= ({own} if own else set()), f"{label}: names {named}, its own is {own}"
        if own is not None:
            assert own in named, f"{label}: its misconception {own} is not named"
            said = visible.says.get(own) or hidden.says[own]
            assert f"behaves as if {said}" in (visible.message() or "") + (hidden.message() or "")

    def test_a_counterexample_shows_where_the_answer_and_the_reference_differ(self, wrong_answer) -> None:
        """Each failed check's line shows both results around their first difference: the two never
        read alike (a rendering cut at a fixed length before the difference would)."""
        grade_id, label, source, _own = wrong_answer
        answer = self.answer(grade_id, label, source)
        for decided in self.verdicts(grade_id, answer):
            for failure in decided.failures:
                if failure.line is None or "; reference " not in failure.line:
                    continue
                yours, reference = failure.line.split(": yours ", 1)[-1].rsplit("; reference ", 1)
                assert yours != reference.removesuffix("."), f"{label}: {failure.line}"

    def test_exploits_score_no_more_than_the_untouched_answer(self, exploit) -> None:
        grade_id, label, source = exploit
        answer = self.answer(grade_id, label, source)
        untouched = self.answer(grade_id, "untouched", self.untouched_source(grade_id))
        for mine, baseline in zip(self.verdicts(grade_id, answer), self.verdicts(grade_id, untouched), strict=True):
            assert mine.earned <= baseline.earned, f"{label}: {mine.earned} > {baseline.earned}\n{mine.message()}"

    def untouched_source(self, grade_id: str) -> str:
        return student_edition_cells(self.CHAPTER)[grade_id]

    def test_the_untouched_answer_is_only_not_answered_yet(self) -> None:
        from autograder.kernel import verdict

        for grade_id, exercise in cases.exercises(self.CHAPTER).items():
            answer = self.answer(grade_id, "untouched", self.untouched_source(grade_id))
            decided = verdict(grade_id, answer)
            message = decided.message() or ""
            assert decided.unanswered, message
            assert message == "\n".join(f"`{s}` is not answered yet." for s in exercise.subjects), message
            assert len(message.split()) <= 20

    def test_no_message_quotes_the_solution_or_the_page(self, wrong_answer) -> None:
        """No line of the instructor's solution, and no sentence the chapter writes (its account of
        the rule), is in what a wrong answer is told."""
        grade_id, label, source, _own = wrong_answer
        answer = self.answer(grade_id, label, source)
        text = "\n".join(v.message() or "" for v in self.verdicts(grade_id, answer))
        quoted = [line for line in solution_lines(self.CHAPTER) if line in text]
        assert not quoted, f"{label}: the message quotes the solution: {quoted}"
        quoted = [sentence for sentence in page_sentences(self.CHAPTER) if sentence in text]
        assert not quoted, f"{label}: the message quotes the page: {quoted}"

    def test_a_companions_visible_checks_hold_no_expected_value(self) -> None:
        if not self.CHAPTER.endswith("-closed-book"):
            pytest.skip("a chapter's visible checks judge behaviour")
        from answer_key.keys import visible_keys

        for grade_id, key in visible_keys(self.CHAPTER).items():
            exercise = cases.exercises(self.CHAPTER)[grade_id]
            assert all(case.form and case.points == 0 for case in exercise.selected(False)), grade_id
            for case_key in key.values():
                assert case_key.says == {}
                assert all(p.expected.value is None and not p.models for p in case_key.points)

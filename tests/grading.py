"""A chapter's whole catalogue, blind panel and attacks, graded as a class by the sandboxed grader; a
small class through real nbgrader; and every verdict compared with the learner's own kernel's.

Each ``tests/chapters/test_grading_<chapter>.py`` subclasses :class:`ChapterGrading` and names its chapter.
The catalogue ``tests/catalog/<chapter>.py`` holds ``RIGHT`` and ``WRONG`` (and ``EXPLOITS``): per
grade id, lists of ``(label, answer source)``, ``(label, answer source, misconception)`` and
``(label, answer source)``; the blind panel ``tests/panel/<grade_id>/`` holds answers written from
the learner's page alone, each labelled right or wrong by its writer and confirmed by a second
reader (``labels.json``). Through ``autograd-state grade``'s grader (the sandbox and the trusted
checker), right answers (the reference, other spellings, the panel's right ones) must earn every
point; each wrong answer must lose its exercise's points, and name its misconception when it is
catalogued; each exploit, and each attack of :mod:`tests.attacks`, must earn no more than what it
is built on; and every verdict, message and point must be what ``grade(...)`` decides on the same answer in a
learner's kernel. Real ``nbgrader autograde`` grades a small class (a right student, the untouched
release, a student holding a wrong answer to every exercise): full marks there exactly where the
sandboxed grader gives them, which keeps nbgrader's own route honest.
"""

from __future__ import annotations

import importlib
import io
import json
import linecache
import os
import pickle
import random
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import nbformat
import pytest
import torch

from autograder.engine.cases import exercises
from autograder.engine.gradeid import module_of, test_cell
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.gradebook.flags import Flag
from autograder.pipeline.grading.grade import autograde, scores
from autograder.pipeline.grading.sandboxed import grade_chapter
from autograder.pipeline.sandbox.confine import close_descriptors_except, is_root
from tests import forger
from tests.attacks import ATTACKS, REBINDER
from tests.cases import student_edition_cells
from tests.conftest import released_copy
from tests.submissions import submit
from tests.warm_kernels import forked_kernels

SEED = 20261201
UNTOUCHED = "untouched"
FORGER = "forger"
#: The catalogue's first wrong answers under the rewriter's rebinding of torch alone: what the
#: rewriter (which rewrites the observing side too) is compared with.
REBOUND = "wrong-rebound"
#: The students whose answers rebind the observing side of the process they run in: judged by the
#: sandboxed grader only (in this process they would rebind the comparison itself).
HOSTILE = (FORGER, REBOUND, *(f"attack-{name}" for name in ATTACKS))


def verdict(grade_id: str, answer, hidden: bool, seed: int):
    """The verdict of ``grade(...)`` in a learner's kernel, with the grading run's seed."""
    from autograder.kernel import verdict as judged

    return judged(grade_id, answer, hidden, seed)


def resolve_answer(name: str, namespace: dict):
    from autograder.engine.observe import resolve_answer as resolve

    return resolve(name, namespace)


def locked_cell_source(course: Course, chapter: str, grade_id: str) -> str:
    """The source of one locked cell of the student edition."""
    edition = nbformat.read(course.release_notebook(chapter), as_version=4)
    return next(c.source for c in edition.cells if nbgrader_meta(c).get("grade_id") == grade_id)


def _setup_source(course: Course, chapter: str) -> str:
    """The student edition's setup cell (its imports), which every answer runs after."""
    return locked_cell_source(course, chapter, f"{chapter}-setup")


def run_cell_source(source: str, filename: str, namespace: dict) -> None:
    """Run an answer's source as a notebook kernel would, its lines readable by ``inspect``
    (a kernel registers each cell in ``linecache``; graders that read an answer's source need it)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), namespace)


# Exercises whose checks run real ranks that race: which scenario a wrong answer gets wrong can
# change from one process to the next (their floating-point sums depend on the threads each rank
# steps with); a right answer is right in every process.
RACING = ("buckets-ranks-agree",)


def _cases(decided) -> list[tuple[str, bool, str | None, int]] | bool:
    if decided.exercise.grade_id in RACING:
        return decided.earned == decided.possible
    return [(v.case.name, v.passed, v.misconception, v.points) for v in decided.verdicts]


def _judged(grade_id: str, answer, hidden: bool) -> tuple[list | bool, int]:
    mine = verdict(grade_id, answer, hidden, seed=SEED)
    return _cases(mine), mine.earned


def _forked(compute: Callable[..., Any], *args: Any) -> Any:
    """``compute(*args)`` in a child forked from this process, as the sandbox runs each cell's checks:
    what they do to the answer's state (a global leaf's ``.grad``) never reaches the next cell's.

    The child keeps no descriptor of this process but its pipe: a catalogued forger writes on every
    descriptor it has, and on the test runner's own channel to its controller it would end the run.
    What the answer prints goes to a buffer, as a job's output goes to its report (the test runner's
    capture of ``sys.stdout`` writes on a descriptor the child has closed)."""
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            close_descriptors_except(writable)
            with os.fdopen(writable, "wb") as out, redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                pickle.dump(compute(*args), out)
            code = 0
        finally:
            os._exit(code)
    os.close(writable)
    with os.fdopen(readable, "rb") as found:
        data = found.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0 and data, "the forked check did not report"
    return pickle.loads(data)


def catalog(chapter: str) -> ModuleType:
    """The answer catalogue of a chapter."""
    return importlib.import_module(f"tests.catalog.{module_of(chapter)}")


def right_students(chapter: str) -> list[str]:
    return [f"right-{i}" for i in range(max(len(v) for v in catalog(chapter).RIGHT.values()))]


def wrong_answers(chapter: str) -> list[tuple[int, str, str, str]]:
    """``(student index, grade id, label, message)`` for every catalogued wrong answer."""
    wrong = catalog(chapter).WRONG
    return [(i, g, label, msg) for g, answers in wrong.items() for i, (label, _src, msg) in enumerate(answers)]


def exploits(chapter: str) -> list[tuple[int, str, str]]:
    """``(student index, grade id, label)`` for every catalogued exploit."""
    found = getattr(catalog(chapter), "EXPLOITS", {})
    return [(i, g, label) for g, answers in found.items() for i, (label, _src) in enumerate(answers)]


PANEL = Path(__file__).with_name("panel")


def panel(grade_id: str) -> list[tuple[str, str, str]]:
    """``(file, label, source)`` of every blind panel answer to an exercise, in name order."""
    folder = PANEL / grade_id
    labels = json.loads((folder / "labels.json").read_text())
    return [(name, labels[name]["label"], (folder / name).read_text()) for name in sorted(labels)]


def panel_answers(chapter: str) -> list[tuple[int, str, str, str]]:
    """``(student index, grade id, file, label)`` for every panel answer of a chapter's exercises."""
    return [(i, g, name, label) for g in exercises(chapter) for i, (name, label, _src) in enumerate(panel(g))]


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Parametrize a :class:`ChapterGrading` test by its chapter's catalogue (called from conftest)."""
    if metafunc.cls is None or not issubclass(metafunc.cls, ChapterGrading):
        return
    chapter = metafunc.cls.CHAPTER
    if "right_student" in metafunc.fixturenames:
        metafunc.parametrize("right_student", right_students(chapter))
    if "wrong_answer" in metafunc.fixturenames:
        wrong = wrong_answers(chapter)
        metafunc.parametrize("wrong_answer", wrong, ids=[f"{g}:{label}" for _i, g, label, _m in wrong])
    if "exploit" in metafunc.fixturenames:
        found = exploits(chapter)
        metafunc.parametrize("exploit", found, ids=[f"{g}:{label}" for _i, g, label in found])
    if "attack" in metafunc.fixturenames:
        metafunc.parametrize("attack", sorted(ATTACKS))
    if "panel_answer" in metafunc.fixturenames:
        found = panel_answers(chapter)
        metafunc.parametrize("panel_answer", found, ids=[f"{g}:{name}" for _i, g, name, _label in found])


@dataclass
class Graded:
    course: Course
    chapter: str
    table: dict[str, dict[str, float]]
    flags: list[Flag]
    sources: dict[str, dict[str, str]]
    decided: dict[str, Any] = field(default_factory=dict)  # the sandboxed grader's verdicts, by student
    forked: list[str] = field(default_factory=list)  # the students graded from the chapter's locked prefix

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

    def printed(self, student: str, mark: str) -> list[str]:
        """The lines a student's cells printed that start with ``mark``, as the sandboxed grader kept them."""
        texts = [o.get("text", "") for outputs in self.decided[student].outputs.values() for o in outputs]
        return [line for text in texts for line in text.splitlines() if line.startswith(mark)]

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


#: The students of the class real nbgrader grades (also in the sandboxed class).
NBGRADER_CLASS = ("right-0", UNTOUCHED, "wrong-nbgrader")


class ChapterGrading:
    """The grading tests every chapter runs; subclasses set ``CHAPTER``.

    ``NBGRADER_WRONG`` names, per exercise, the catalogued wrong answer the class real nbgrader
    grades holds (its first when not named).
    """

    CHAPTER: ClassVar[str]
    NBGRADER_WRONG: ClassVar[dict[str, str]] = {}
    pytestmark = [pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (users and namespaces)")]

    @classmethod
    def reference(cls, grade_id: str) -> str:
        return catalog(cls.CHAPTER).RIGHT[grade_id][0][1]

    @classmethod
    def answer_context(cls, course: Course) -> str:
        """The locked code every answer runs after in the in-process check: the setup cell."""
        return _setup_source(course, cls.CHAPTER)

    @classmethod
    def submit_more(cls, course: Course) -> None:
        """Extra submissions graded in the same run (tampered, broken); none by default."""

    @classmethod
    def sources(cls) -> dict[str, dict[str, str]]:
        """Every student of the sandboxed class: each answer to each exercise, as a learner's cell."""
        chapter, answers = cls.CHAPTER, catalog(cls.CHAPTER)
        grade_ids = list(exercises(chapter))
        found: dict[str, dict[str, str]] = {}
        for i, student in enumerate(right_students(chapter)):
            found[student] = {g: answers.RIGHT[g][i % len(answers.RIGHT[g])][1] for g in grade_ids}
        for i in range(max(len(v) for v in answers.WRONG.values())):
            found[f"wrong-{i}"] = {g: answers.WRONG[g][i][1] if i < len(answers.WRONG.get(g, []))
                                   else cls.reference(g) for g in grade_ids}
        # An exploit's or a panel answer's student leaves the other exercises as released: only its
        # own exercise is judged, and an unanswered one costs the class's run next to nothing.
        edition = student_edition_cells(chapter)
        caught = getattr(answers, "EXPLOITS", {})
        for i in range(max((len(v) for v in caught.values()), default=0)):
            found[f"exploit-{i}"] = {g: caught[g][i][1] if i < len(caught.get(g, [])) else edition[g]
                                     for g in grade_ids}
        blind = {g: panel(g) for g in grade_ids}
        for i in range(max(len(v) for v in blind.values())):
            found[f"panel-{i}"] = {g: blind[g][i][2] if i < len(blind[g]) else edition[g] for g in grade_ids}
        found[UNTOUCHED] = {g: edition[g] for g in grade_ids}
        # The forger's search runs first in the first answer cell; the released stub follows it.
        found[FORGER] = {**found[UNTOUCHED], grade_ids[0]: forger.SOURCE + "\n\n" + edition[grade_ids[0]]}
        found["wrong-nbgrader"] = {g: next((src for label, src, _m in answers.WRONG.get(g, [])
                                            if label == cls.NBGRADER_WRONG.get(g)),
                                           answers.WRONG[g][0][1] if answers.WRONG.get(g) else cls.reference(g))
                                   for g in grade_ids}
        # Each attack of tests/attacks.py in every answer cell: the rewriter on the first wrong
        # answers, every other on the release's stubs.
        found[REBOUND] = {g: REBINDER + "\n" + found["wrong-0"][g] for g in grade_ids}
        for name, attack in ATTACKS.items():
            base = found["wrong-0"] if name == "rewriter" else found[UNTOUCHED]
            found[f"attack-{name}"] = {g: attack + "\n" + base[g] for g in grade_ids}
        return found

    @classmethod
    def released(cls, tmp_path_factory, name: str) -> Course:
        """A course of its own with the chapter released: nothing graded in it but this class."""
        return released_copy(tmp_path_factory, tmp_path_factory.mktemp(f"{cls.CHAPTER}-{name}") / "course",
                             [cls.CHAPTER])

    @pytest.fixture(scope="class")
    @classmethod
    def graded(cls, tmp_path_factory) -> Graded:
        """The whole class, graded by the sandboxed grader (what ``autograd-state grade`` runs).

        In a course of its own: in the session's shared course another module may already have graded
        a submission identical to one of this class (the untouched release), which the grader then
        skips as unchanged, and this run would hold no verdict of it."""
        chapter = cls.CHAPTER
        course = cls.released(tmp_path_factory, "sandboxed")
        sources = cls.sources()
        for student, answered in sources.items():
            submit(course, chapter, student, answered)
        cls.submit_more(course)
        outcome = grade_chapter(course, chapter, progress=False, seed=SEED)
        return Graded(course, chapter, scores(course, chapter), outcome.flags, sources, outcome.decided,
                      outcome.forked)

    @pytest.fixture(scope="class")
    @classmethod
    def nbgrader_graded(cls, graded: Graded, tmp_path_factory) -> Graded:
        """The small class, graded by real ``nbgrader autograde`` in a course of its own."""
        course = cls.released(tmp_path_factory, "nbgrader")
        for student in NBGRADER_CLASS:
            submit(course, cls.CHAPTER, student, graded.sources[student])
        with forked_kernels():  # each student's kernel a fresh process, without importing torch again
            flags = autograde(course, cls.CHAPTER)
        return Graded(course, cls.CHAPTER, scores(course, cls.CHAPTER), flags,
                      {s: graded.sources[s] for s in NBGRADER_CLASS})

    def test_right_spellings_earn_every_point(self, graded: Graded, right_student: str) -> None:
        graded.assert_full_points_except(right_student)

    def test_the_class_is_graded_from_the_chapters_locked_prefix_run_once(self, graded: Graded) -> None:
        # A prefix the holder cannot run (Chapter 6's ranks need loopback in its namespace) is no
        # wrong grade, only every submission run from the top: seconds each, for the whole class.
        assert set(right_students(self.CHAPTER)) <= set(graded.forked)

    def test_wrong_answers_lose_points_with_their_misconception(self, graded: Graded, wrong_answer) -> None:
        index, grade_id, label, message = wrong_answer
        earned, full = graded.exercise_score(f"wrong-{index}", grade_id)
        assert earned < full, f"{label} earned {earned}/{full}"
        shown = graded.cell_outputs(f"wrong-{index}", grade_id)
        if message is not None:
            from answer_key.keys import key_of

            said = next(m.says for m in key_of(exercises(self.CHAPTER)[grade_id]).models if m.name == message)
            assert f"behaves as if {said}" in shown, \
                f"{label}: its misconception is not named\n{shown}"

    def test_exploits_earn_no_more_than_the_untouched_answer(self, graded: Graded, exploit) -> None:
        index, grade_id, label = exploit
        earned, _full = graded.exercise_score(f"exploit-{index}", grade_id)
        untouched, _ = graded.exercise_score(UNTOUCHED, grade_id)
        assert earned <= untouched, f"{label} earned {earned}, the untouched answer {untouched}"

    def test_the_blind_panel_is_graded_as_labelled(self, graded: Graded, panel_answer) -> None:
        """A right answer of the panel earns every point; a wrong or partial one loses some."""
        index, grade_id, name, label = panel_answer
        earned, full = graded.exercise_score(f"panel-{index}", grade_id)
        said = graded.cell_outputs(f"panel-{index}", grade_id)
        assert (earned == full) == (label == "right"), f"{grade_id}/{name} ({label}): {earned}/{full}\n{said}"

    def test_wrong_students_keep_points_on_the_exercises_they_got_right(self, graded: Graded) -> None:
        wrong = catalog(self.CHAPTER).WRONG
        for i in range(max(len(v) for v in wrong.values())):
            for grade_id in exercises(self.CHAPTER):
                if i >= len(wrong.get(grade_id, [])):
                    earned, full = graded.exercise_score(f"wrong-{i}", grade_id)
                    assert earned == full, (i, grade_id)

    def test_the_forger_learns_nothing_and_earns_nothing(self, graded: Graded) -> None:
        decided = graded.decided[FORGER]
        if any(not ex.bare for ex in exercises(self.CHAPTER).values()):  # a bare job has no torch to probe
            said = [cell.outputs()[0]["evalue"] for cell in decided.tests.values()
                    if cell.outputs() and forger.FINDINGS in cell.outputs()[0].get("evalue", "")]
            assert said, "the forger's search did not run at the moment the checks ran"
            assert all(f"{forger.FINDINGS} []" in text for text in said), said
        for grade_id in exercises(self.CHAPTER):  # the forger leaves every answer as released
            assert graded.exercise_score(FORGER, grade_id)[0] <= graded.exercise_score(UNTOUCHED, grade_id)[0]

    def test_an_attack_scores_no_more_on_any_grade_id_than_what_it_is_built_on(self, graded: Graded,
                                                                                 attack: str) -> None:
        """Each attack of :mod:`tests.attacks` (the right answers of the same class keep every point:
        ``test_right_spellings_earn_every_point``). The rewriter's rebinding of torch is the answer's
        own behaviour (a no-op ``add_`` can make a wrong answer right on some family); what it must
        not gain is what its rewriting of the observing side adds."""
        base = REBOUND if attack == "rewriter" else UNTOUCHED
        for grade_id in exercises(self.CHAPTER):
            mine, _full = graded.exercise_score(f"attack-{attack}", grade_id)
            theirs, _full = graded.exercise_score(base, grade_id)
            assert mine <= theirs, (attack, grade_id, mine, theirs)

    def test_the_reader_and_the_publisher_find_nothing(self, graded: Graded) -> None:
        found = graded.printed("attack-reader", "READER FOUND")
        assert found and all(json.loads(line.removeprefix("READER FOUND ")) == [] for line in found), found
        saw = graded.printed("attack-publisher", "PUBLISHER SAW")
        assert saw and all(json.loads(line.removeprefix("PUBLISHER SAW ")) == [] for line in saw), saw

    def test_the_forger_and_the_filter_report_nothing_that_counts(self, graded: Graded) -> None:
        """The forger's lines come out of the plan's turn: its run is stopped and nothing of it counts.
        The filter's notebook cannot reach its probes' report pipes: its probes report nothing."""
        forged = graded.decided["attack-forger"]
        assert any("wrote to the grader's channel itself" in p or "stopped" in p for p in forged.problems), \
            forged.problems
        assert all(cell.earned == 0 for cell in graded.decided["attack-filter"].tests.values())

    def test_real_nbgrader_gives_full_marks_exactly_where_the_sandboxed_grader_does(
        self, graded: Graded, nbgrader_graded: Graded
    ) -> None:
        """nbgrader gives a cell full marks when its test raised nothing; the sandboxed grader when
        none of its checks failed (a failed check of no points, such as a form check, still fails it).
        A cell of no points scores 0 in nbgrader whatever it found."""
        full = {test_cell(g, hidden): ex.points(hidden) for g, ex in exercises(self.CHAPTER).items()
                for hidden in (False, True)}
        disagree = {}
        for student in NBGRADER_CLASS:
            decided = graded.decided[student].tests
            for cell, score in nbgrader_graded.table[student].items():
                passed = decided[cell].verdict is not None and decided[cell].verdict.message() is None
                if full[cell] and (score == full[cell]) != (graded.table[student][cell] == full[cell] and passed):
                    disagree[student, cell] = (score, graded.table[student][cell])
        flagged = [f"{flag.student}: {flag.reason}" for flag in nbgrader_graded.flags
                   if any(student == flag.student for student, _cell in disagree)]
        assert not disagree, f"(student, cell): (nbgrader, sandbox) {disagree}; nbgrader's flags: {flagged}"

    def test_every_verdict_is_the_one_the_learners_kernel_gives(self, graded: Graded) -> None:
        """Every sandboxed verdict (cases, messages, points) equals what ``grade(...)`` decides in this
        process on the same notebook state, each cell's checks in a child forked from it as the
        sandbox runs them, on one thread as each sandbox steps."""
        setup = self.answer_context(graded.course)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            self._judged_as_in_the_kernel(graded, setup)
        finally:
            torch.set_num_threads(threads)

    def _judged_as_in_the_kernel(self, graded: Graded, setup: str) -> None:
        from autograder.kernel import cell_key

        # The run's keys, computed once in this process under the numerics of the checks: every
        # forked check inherits them (computed in each child, a key whose reference runs on real
        # ranks would cost seconds per student). The generators are left as they were.
        generator = random.getstate()
        with torch.random.fork_rng(devices=[]):
            for exercise in exercises(self.CHAPTER).values():
                for hidden in (False, True):
                    cell_key(exercise, hidden, SEED)
        random.setstate(generator)
        # A student whose cells up to an exercise are another's, in the same order, holds the same
        # answer in the same namespace: its verdict is judged once (most wrong students hold the
        # reference on most exercises).
        judged: dict[tuple[tuple[str, ...], bool], tuple] = {}
        for student, answered in graded.sources.items():
            # These rebind the observing side of the process they run in: they are judged above.
            if student not in graded.decided or student in HOSTILE:
                continue
            namespace: dict = {"__name__": "__main__"}  # as in a notebook kernel: the setup, then each answer
            run_cell_source(setup, f"<{student}:setup>", namespace)
            cells: tuple[str, ...] = ()
            for exercise in exercises(self.CHAPTER).values():
                cells += (answered[exercise.grade_id],)
                try:
                    run_cell_source(answered[exercise.grade_id], f"<{student}:{exercise.grade_id}>", namespace)
                except NotImplementedError:
                    pass  # the release's stub raises; the names it set stay defined
                try:
                    answer = resolve_answer(exercise.answer, namespace)
                except NameError:  # the stub raised before it defined the name: its test cells score 0
                    assert all(graded.table[student][test_cell(exercise.grade_id, h)] == 0 for h in (False, True))
                    continue
                for hidden in (False, True):
                    grade_id = test_cell(exercise.grade_id, hidden)
                    cell = graded.decided[student].tests[grade_id]
                    if (cells, hidden) not in judged:
                        judged[cells, hidden] = _forked(_judged, exercise.grade_id, answer, hidden)
                    mine, earned = judged[cells, hidden]
                    assert cell.verdict is not None, (student, grade_id, cell.not_run)
                    assert _cases(cell.verdict) == mine, (student, grade_id)
                    if exercise.grade_id in RACING:  # which scenarios it gets wrong, and so its points, may differ
                        full = exercise.points(hidden)
                        assert (graded.table[student][grade_id] == full) == (earned == full), (student, grade_id)
                    else:
                        assert graded.table[student][grade_id] == earned, (student, grade_id)

    def test_every_exercise_has_right_and_three_wrong_answers(self) -> None:
        answers = catalog(self.CHAPTER)
        for grade_id in exercises(self.CHAPTER):
            assert answers.RIGHT.get(grade_id), f"{grade_id}: no right answer catalogued"
            if not grade_id.endswith("-selftest"):
                assert len(answers.WRONG.get(grade_id, [])) >= 3, f"{grade_id}: fewer than three wrong answers"

    def test_every_exercise_has_a_blind_panel_of_five_right_and_five_wrong(self) -> None:
        for grade_id in exercises(self.CHAPTER):
            labels = [label for _name, label, _src in panel(grade_id)]
            assert labels.count("right") >= 5 and labels.count("wrong") >= 5, (grade_id, labels)

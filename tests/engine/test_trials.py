"""Trials: a learner's test is run on the grader's correct pairs and mutants one piece per sandbox
job, after the learner's cells and unlabelled; no job holds a second piece, a name, or anything a
test could tell a correct pair from a mutant by, except what the pieces do."""

from __future__ import annotations

import json

import pytest

from answer_key import capstone as chapter_key
from answer_key import capstone_closed_book as companion_key
from autograder.chapters.capstone import CORRECT, MUTANTS
from autograder.engine.cases import exercises
from autograder.engine.observe import Seen
from autograder.engine.trials import assembled, observation
from autograder.pipeline.course import Course, read_notebook
from autograder.pipeline.grading import verdict
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.grading.sandboxed import grade_chapter
from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog.capstone_closed_book import BROKEN, FIXED, TEST
from tests.conftest import released_copy
from tests.submissions import submit

COMPANION = "capstone-closed-book"
SEED = 20261204


@pytest.mark.parametrize(("chapter", "keys"), [("capstone", chapter_key), (COMPANION, companion_key)])
def test_one_job_per_piece_each_holding_that_piece_alone_and_no_name(chapter: str, keys) -> None:
    course = Course()
    edition = read_notebook(course.source_notebook(chapter))
    key = verdict.Key.of(chapter, SEED)
    main = verdict.plan(edition, edition, key)
    jobs = verdict.trial_plans(main, key)
    assert sorted(piece for _cell, piece, _plan, _pieces in jobs) == sorted([*CORRECT, *MUTANTS])
    tried = {f"{g}-tests-hidden" for g, ex in exercises(chapter).items() if any(c.trial for c in ex.cases)}
    assert {cell for cell, _piece, _plan, _pieces in jobs} == tried and len(tried) == 1
    for _cell, piece, plan, pieces in jobs:
        text = json.dumps(plan.to_json())
        # The plan a job is forked with holds no piece: its one piece goes to its supervisor, which
        # hands it over with the trial step's report pipe.
        assert not [name for name, source in keys.TRIALS.items() if json.dumps(source)[1:-1] in text], piece
        assert pieces == {plan.steps[-1].key: keys.TRIALS[piece]}
        assert not [name for name in keys.TRIALS if name in text or name in json.dumps(pieces)], piece
        assert isinstance(plan.steps[-1], wire.TrialStep) and not any(
            isinstance(step, wire.ProbeStep) for step in plan.steps)
    assert not any(isinstance(step, wire.TrialStep) for step in main.steps)


def test_a_trial_case_is_assembled_from_its_pieces_as_the_driver_reports_it() -> None:
    case = next(c for c in exercises("capstone")["capstone-regression-test"].cases
                if c.trial is not None and c.trial.mutant == "fixed-through-data")
    verdicts = {"correct-one": Seen(value=True), "correct-two": Seen(value=True),
                "fixed-through-data": Seen(value=False)}
    assert assembled(case, verdicts) == Seen(value=observation([True, True], False))
    raised = Seen(raised=("TypeError", "'tuple' object is not callable"))
    assert assembled(case, {**verdicts, "correct-two": raised}) == raised
    assert assembled(case, {**verdicts, "fixed-through-data": Seen(value="yes")}).raised[0] == "NotGraded"


# A test that looks for the grader's labels wherever the process that runs it keeps anything: the
# frames above it and every object the collector knows. It passes exactly when the broken() it is
# given is one the labels call correct — a perfect score wherever the labels can be found.
HUNTER = BROKEN + FIXED + '''
def test_regression():
    import gc
    import sys

    def labelled(value):
        return isinstance(value, dict) and isinstance(value.get("correct-one"), str)

    found = [o for o in gc.get_objects() if labelled(o)]
    frame = sys._getframe()
    while frame is not None:
        found += [v for v in frame.f_locals.values() if labelled(v)]
        frame = frame.f_back
    correct = set()
    for labels in found:
        for name in ("correct-one", "correct-two"):
            module = compile(labels[name], "<the grader's pair>", "exec")
            correct |= {c.co_code for c in module.co_consts if getattr(c, "co_name", "") in ("broken", "fixed")}
    assert broken.__code__.co_code in correct and fixed.__code__.co_code in correct
'''

# A test that passes exactly when it can read the source text of the pieces it is run on — from
# ``inspect``, the frames above it, or any container the collector knows — the first step of a test
# that tells pieces apart by their text.
READER = BROKEN + FIXED + '''
def test_regression():
    import gc
    import inspect
    import sys

    def a_piece(text):
        return isinstance(text, str) and "def broken" in text and "def fixed" in text and "test_regression" not in text

    found = []
    try:
        found.append(inspect.getsource(fixed))
    except (OSError, TypeError):
        pass
    frame = sys._getframe()
    while frame is not None:
        found += [v for v in frame.f_locals.values() if a_piece(v)]
        frame = frame.f_back
    for holder in gc.get_objects():
        values = holder.values() if isinstance(holder, dict) else holder if isinstance(holder, (list, tuple)) else ()
        found += [v for v in list(values) if a_piece(v)]
    assert found
'''


def test_the_hunter_would_score_wherever_the_labels_are() -> None:
    """In the grader's own process (where the keys are) the hunter finds the labels and passes
    every trial: what the sandbox's jobs must take from it."""
    from autograder.kernel import verdict as kernel_verdict
    from tests.cases import run_cell_source
    from tests.chapters.test_capstone_closed_book_cases import kernel_namespace

    namespace = kernel_namespace()
    run_cell_source(HUNTER, "<hunter>", namespace)
    answer = (namespace["broken"], namespace["fixed"], namespace["test_regression"])
    decided = kernel_verdict("capstone-reproduce", answer, True, SEED)
    assert not [f for f in decided.failures if f.case.trial is not None], decided.message()


@pytest.mark.nbgrader
@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_in_the_sandbox_the_hunter_finds_nothing_and_the_reference_keeps_every_point(tmp_path_factory) -> None:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("trials") / "course", [COMPANION])
    submit(course, COMPANION, "reference", {"capstone-reproduce": BROKEN + FIXED + TEST})
    submit(course, COMPANION, "hunter", {"capstone-reproduce": HUNTER})
    submit(course, COMPANION, "reader", {"capstone-reproduce": READER})
    submit(course, COMPANION, "untouched", {})
    outcome = grade_chapter(course, COMPANION, progress=False, seed=SEED)
    table = scores(course, COMPANION)
    hidden = "capstone-reproduce-tests-hidden"
    full = exercises(COMPANION)["capstone-reproduce"].points(True)
    assert table["reference"][hidden] == full, outcome.decided["reference"].tests[hidden].verdict.message()
    tests_of = {f.case.name for f in outcome.decided["hunter"].tests[hidden].verdict.failures}
    assert {f"test-{name}" for name in MUTANTS} <= tests_of
    assert table["hunter"][hidden] <= full - sum(
        c.points for c in exercises(COMPANION)["capstone-reproduce"].cases if c.trial is not None)
    # No job lets a test read the source of the piece it runs on: the reader fails on every piece.
    reader = {f.case.name for f in outcome.decided["reader"].tests[hidden].verdict.failures}
    assert {c.name for c in exercises(COMPANION)["capstone-reproduce"].cases if c.trial is not None} <= reader

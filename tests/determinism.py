"""The same answer gets the same score on every grading run: every right answer of every exercise's
catalogue (its reference first) earns every point on twenty seeds, ten with the grading process on
one thread and ten others on two (a key computed with another number of threads than the
observation ran with would move a floating-point result out of its tolerance); and every wrong
answer loses the same checks on every seed of :data:`WRONG_SEEDS` (a family whose inputs show a
mistake on some draws only would take its points on some runs and not on others).

The chapters whose checks run real ranks are the slowest; they are checked from a file of their
own (``tests/test_determinism_ranks.py``), since the test runner hands a whole file to one worker."""

from __future__ import annotations

import torch

from autograder.engine.cases import exercises
from autograder.pipeline.course import Course
from tests.cases import run_cell_source, student_edition_cells
from tests.grading import catalog, resolve_answer, verdict

#: The seeds of each number of threads: twenty runs in all, no two with the same draws.
SEEDS = {1: range(1000, 1010), 2: range(1010, 1020)}
THREADS = tuple(SEEDS)
#: The chapters whose checks run on real ranks (``torch.distributed``).
ON_RANKS = ("buckets",)
ASSIGNMENTS = Course().chapters()


def _namespaces(assignment: str) -> dict:
    """What the chapter's setup cell defines, as a learner's kernel runs it."""
    namespace: dict = {"__name__": "__main__"}
    run_cell_source(student_edition_cells(assignment)[f"{assignment}-setup"], f"<{assignment}:setup>", namespace)
    return namespace


def points_lost(assignment: str, threads: int) -> list[str]:
    """Every seed on which a right answer of the chapter's catalogue lost a point, with its message."""
    kept = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        setup = _namespaces(assignment)
        # What a catalogue's answers run after besides the setup cell, as it says (a fragment they call).
        context = getattr(catalog(assignment), "context", lambda grade_id: "")
        lost = []
        for grade_id, exercise in exercises(assignment).items():
            for label, source in catalog(assignment).RIGHT[grade_id]:
                namespace = dict(setup)
                run_cell_source(context(grade_id), f"<{grade_id}:context>", namespace)
                run_cell_source(source, f"<{grade_id}:{label}>", namespace)
                answer = resolve_answer(exercise.answer, namespace)
                for seed in SEEDS[threads]:
                    for hidden in (False, True):
                        decided = verdict(grade_id, answer, hidden, seed)
                        if decided.message() is not None:
                            lost.append(f"{grade_id}/{label} seed {seed}: {decided.message()}")
        return lost
    finally:
        torch.set_num_threads(kept)


#: The seeds on which every wrong answer of a catalogue must lose the same checks.
WRONG_SEEDS = range(2000, 2006)


def unstable_losses(assignment: str) -> list[str]:
    """Every wrong answer of the chapter's catalogue whose failed checks differ between seeds, with
    the checks it failed on one seed and not on another."""
    setup = _namespaces(assignment)
    context = getattr(catalog(assignment), "context", lambda grade_id: "")
    unstable = []
    for grade_id, exercise in exercises(assignment).items():
        for label, source, *_own in catalog(assignment).WRONG.get(grade_id, []):
            namespace = dict(setup)
            run_cell_source(context(grade_id), f"<{grade_id}:context>", namespace)
            run_cell_source(source, f"<{grade_id}:{label}>", namespace)
            answer = resolve_answer(exercise.answer, namespace)
            lost = {seed: frozenset(f"{'hidden' if hidden else 'visible'} {v.case.name}"
                                    for hidden in (False, True)
                                    for v in verdict(grade_id, answer, hidden, seed).failures)
                    for seed in WRONG_SEEDS}
            if len(set(lost.values())) > 1:
                always = frozenset.intersection(*lost.values())
                sometimes = {seed: sorted(checks - always) for seed, checks in lost.items() if checks - always}
                unstable.append(f"{grade_id}/{label} lost only on some seeds: {sometimes}")
    return unstable

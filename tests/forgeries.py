"""Forged observations: answers that rebind the observing side (a driver, ``observe_point``) so
that it reports what they like.

Such an answer wins wherever the key is computed in the process it ran in — a learner's kernel,
plain nbgrader — since it can rebind anything there (``grade`` itself included); that is why
grades are decided by the sandboxed grader, whose key is computed in a process the answer never
touched. These tests reproduce that split in process: the key is computed first, the forging
source runs, then the answer is observed and judged against the key made apart. A forgery must
earn no more than the untouched answer. (``tests/grading.py`` grades the catalogue's ``EXPLOITS``
through plain nbgrader too, so forgeries are kept apart, in ``FORGERIES``.)
"""

from __future__ import annotations

from typing import Any

from autograder.engine.cases import exercises
from autograder.engine.observe import resolve_answer, seeds_for
from autograder.judging import judge_cell
from autograder.kernel import observe_here, verdict
from tests.cases import SEED, run_cell_source, student_edition_cells


def earned_apart(chapter: str, grade_id: str, source: str, names: dict[str, Any]) -> list[tuple[int, int]]:
    """``(forged, untouched)`` points of the visible and the hidden cell, each judged against a key
    computed before the forging source ran."""
    from answer_key.keys import cell_key

    exercise = exercises(chapter)[grade_id]
    untouched_ns = {"__name__": "__main__", **names}
    try:
        run_cell_source(student_edition_cells(chapter)[grade_id], f"<{grade_id}:untouched>", untouched_ns)
    except NotImplementedError:
        pass
    untouched = resolve_answer(exercise.answer, untouched_ns)
    keys = {hidden: cell_key(exercise, hidden, SEED) for hidden in (False, True)}
    baseline = {hidden: verdict(grade_id, untouched, hidden, SEED).earned for hidden in (False, True)}
    namespace = {"__name__": "__main__", **names}
    try:
        run_cell_source(source, f"<{grade_id}:forged>", namespace)
    except NotImplementedError:
        pass
    answer = resolve_answer(exercise.answer, namespace)
    found = []
    for hidden in (False, True):
        seen = observe_here(exercise, answer, seeds_for(exercise, hidden, SEED))
        found.append((judge_cell(exercise, hidden, seen, keys[hidden]).earned, baseline[hidden]))
    return found

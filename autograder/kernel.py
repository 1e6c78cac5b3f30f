"""The checks a learner runs in their own kernel: ``grade(...)``, the one call of a test cell.

A visible test cell observes the answer on the visible checks' inputs and judges it against
their key: in a learner's installation the key ships as data (``autograder/visible/``); where the
trusted package is installed (an instructor's or a maintainer's), it is computed. Hidden checks
need the trusted package: they run when the submission is graded, or in an instructor's copy.
The verdict and its message are those the grader records for the same inputs.

What the learner reads is plain text: names without the Markdown backticks a graded notebook's
feedback renders, and a passing cell says so in one line. A notebook nbgrader autogrades
(``NBGRADER_EXECUTION=autograde``, which nbgrader sets for the kernels it starts) records the
grader's message as it is and no line for a pass: there the hidden checks have run, and every
route to a grade records the same outputs.
"""

from __future__ import annotations

import importlib.resources
import linecache
import os
import re
import textwrap
from functools import cache
from typing import Any

from autograder.engine import gradeid, secret
from autograder.engine.cases import Exercise, lookup
from autograder.engine.draw import fresh_seed
from autograder.engine.numerics import as_observed
from autograder.engine.observe import CellObservation, as_sent, bare_calls, bare_observation, observe_cell, seeds_for
from autograder.judging import CellKey, CellVerdict, judge_cell, keys_from_json

# Markdown's inline code, as a judging message marks the names it speaks of.
INLINE_CODE = re.compile(r"`([^`\n]+)`")
# Characters of a message line in the learner's notebook.
WIDTH = 100


def grade(grade_id: str, answer: Any, hidden: bool = False) -> None:
    """The call a test cell makes: say in one line that every check passed, or fail with what the
    checks found.

    Raises:
        AssertionError: saying which checks failed and why, with the points the others earned.
    """
    __tracebackhide__ = True
    decided = verdict(grade_id, answer, hidden)
    message = decided.message()
    if autograded():
        if message is not None:
            raise AssertionError(message)
        return
    if message is not None:
        raise AssertionError(plain(message))
    print(passed_line(decided))


def autograded() -> bool:
    """Whether nbgrader is autograding this kernel's notebook (it sets the variable for its kernels)."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


def plain(message: str) -> str:
    """A judging message as plain text: ```STRIDES` is not answered yet.`` reads ``STRIDES is not
    answered yet.``; each line wrapped to the notebook's width, its continuation indented (an
    error's output does not wrap in JupyterLab, and a counterexample must not run off its side)."""
    lines = INLINE_CODE.sub(r"\1", message).splitlines()
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False) or line
                     for line in lines)


def passed_line(decided: CellVerdict) -> str:
    """The line a test cell whose checks all passed prints: how many, of which kind, and what is left."""
    cases = [v.case for v in decided.verdicts]
    kind = "hidden" if decided.hidden else "form" if all(c.form is not None for c in cases) else "visible"
    passed = f"all {len(cases)} {kind} checks pass" if len(cases) != 1 else f"the {kind} check passes"
    if decided.hidden or not decided.exercise.selected(True):
        return f"✓ {passed}."
    return f"✓ {passed}; hidden checks run when graded."


def verdict(grade_id: str, answer: Any, hidden: bool = False, seed: int | None = None) -> CellVerdict:
    """Observe and judge one test cell's checks here (what ``grade`` does).

    ``seed`` draws the inputs as a grading run with that seed does; without it, visible checks run
    on the visible inputs and hidden ones on fresh inputs.
    """
    exercise = lookup(grade_id)
    if hidden and seed is None:
        seed = fresh_seed()
    seen = observe_here(exercise, answer, seeds_for(exercise, hidden, seed))
    # The models of mistakes only explain a check that failed: they are run only then.
    decided = judge_cell(exercise, hidden, seen, cell_key(exercise, hidden, seed, models=False))
    if decided.failures:
        decided = judge_cell(exercise, hidden, seen, cell_key(exercise, hidden, seed))
    return decided


def observe_here(exercise: Exercise, answer: Any, seeds: dict[str, list[int]]) -> CellObservation:
    """Observe in this process, as the sandbox would: a bare exercise in a bare interpreter, and
    every result through the same encoding the sandbox's report goes through."""
    if exercise.bare:
        calls = bare_calls(exercise, seeds)
        from autograder.engine.bare import run_here

        return bare_observation(run_here(answer_cells(answer), calls), calls)
    secret.taken()  # draws left by an earlier check are not this one's
    with as_observed():
        seen = observe_cell(exercise, answer, seeds)
    return CellObservation({name: [as_sent(s) for s in points] for name, points in seen.cases.items()},
                           seen.missing, seen.rejected, seen.unfinished, secret.taken())


def answer_cells(answer: Any) -> list[str]:
    """The sources of the notebook cells that defined an answer's functions, in order."""
    functions = list(answer.values()) if type(answer) is dict else list(answer) if type(answer) in (tuple, list) \
        else [answer]
    sources = []
    for function in functions:
        code = getattr(function, "__code__", None)
        if code is None:
            continue
        source = "".join(linecache.getlines(code.co_filename))
        if source and source not in sources:
            sources.append(source)
    return sources


def cell_key(exercise: Exercise, hidden: bool, seed: int | None, models: bool = True) -> CellKey:
    """The key to judge against: computed by the trusted package where it is installed, else the
    visible key shipped with the course (which holds the models). ``models=False`` may leave out
    the models of mistakes (:func:`answer_key.keys.cell_key`)."""
    try:
        from answer_key.keys import cell_key as trusted
    except ImportError:
        if hidden or seed is not None:
            raise RuntimeError("hidden checks run when your submission is graded") from None
        return shipped(gradeid.assignment_of(exercise.module))[exercise.grade_id]
    return trusted(exercise, hidden, seed, models)


@cache
def shipped(assignment: str) -> dict[str, CellKey]:
    """The visible keys of an assignment, as the learner's installation carries them."""
    resource = importlib.resources.files("autograder").joinpath("visible", f"{gradeid.module_of(assignment)}.json")
    try:
        return keys_from_json(resource.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuntimeError(f"this installation has no visible checks for {assignment}") from None

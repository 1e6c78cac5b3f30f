"""The closed-book companion of Chapter 7: its cases in process, its key against torch, and its
visible checks holding no expected value."""

from __future__ import annotations

import sys

import pytest
import torch

from answer_key import capstone_closed_book as key
from autograder.chapters.capstone import CORRECT, MUTANTS
from autograder.chapters.capstone_closed_book import PROVIDERS
from autograder.engine.observe import resolve_answer
from autograder.engine.reduction import deletions_keeping, passes_with, witnessed_failure
from autograder.engine.trials import compiled, piece
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from tests.cases import ChapterCases
from tests.catalog.capstone_closed_book import BROKEN_NOT_MINIMAL, TEST
from tests.grading import run_cell_source

CHAPTER = "capstone-closed-book"


def notebook_cell(grade_id: str) -> str:
    notebook = read_notebook(Course().source_notebook(CHAPTER))
    return next(c.source for c in notebook.cells if nbgrader_meta(c).get("grade_id") == grade_id)


def kernel_namespace() -> dict:
    """What an answer sees in the companion's kernel: the setup cell, then the fragment's cell."""
    namespace: dict = {"__name__": "__main__"}
    source = notebook_cell(f"{CHAPTER}-setup") + "\n" + notebook_cell(f"{CHAPTER}-fragment")
    run_cell_source(source, "<companion>", namespace)
    return namespace


@pytest.fixture(autouse=True)
def _restore_the_modules():
    modules = [sys.modules[name] for name in ("autograder.chapters.capstone_closed_book",
                                              "autograder.chapters.capstone", "autograder.engine.reduction")]
    kept = [dict(vars(module)) for module in modules]
    yield
    for module, names in zip(modules, kept, strict=True):
        vars(module).clear()
        vars(module).update(names)


class TestCapstoneClosedBookCases(ChapterCases):
    CHAPTER = CHAPTER
    NAMES = kernel_namespace()

    def answer(self, grade_id, label, source):
        from autograder.engine.cases import exercises

        namespace = dict(self.NAMES)
        try:
            run_cell_source(source, f"<{CHAPTER}:{grade_id}:{label}>", namespace)
        except NotImplementedError:
            pass
        return resolve_answer(exercises(CHAPTER)[grade_id].answer, namespace)


def test_the_notebooks_fragment_fails_as_the_keys_copy_and_the_reference_reduction():
    fragment = kernel_namespace()["fragment"]
    raised = witnessed_failure(fragment, PROVIDERS)["raised"]
    assert raised == witnessed_failure(key.fragment, PROVIDERS)["raised"]
    assert raised == witnessed_failure(key.broken, PROVIDERS)["raised"]
    assert "which is output 0 of Add, is at version 1" in raised[1]


def test_the_reference_is_one_minimal_and_raised_by_its_own_backward():
    found = witnessed_failure(key.broken, PROVIDERS)
    assert found["raised by a backward it called"] and found["a saved tensor is stale with that message"]
    assert deletions_keeping(key.broken) == 0
    namespace = kernel_namespace()
    run_cell_source(BROKEN_NOT_MINIMAL, "<not-minimal>", namespace)
    assert deletions_keeping(namespace["broken"]) == 1


def test_the_pairs_and_mutants_behave_as_their_names_say():
    correct = [piece(compiled(key.TRIALS[name])) for name in CORRECT]
    reference = witnessed_failure(correct[0][0], PROVIDERS)["raised"]
    assert witnessed_failure(correct[1][0], PROVIDERS)["raised"][1].split(" Hint:")[0] == \
        reference[1].split(" Hint:")[0]
    assert torch.allclose(correct[0][1](), correct[1][1](), atol=1e-6)
    assert set(key.TRIALS) == {*CORRECT, *MUTANTS}
    for name in MUTANTS:
        broken, fixed = piece(compiled(key.TRIALS[name]))
        if name.startswith("fixed-"):
            assert not torch.allclose(fixed(), correct[0][1](), atol=1e-4)
        else:
            assert witnessed_failure(broken, PROVIDERS)["raised"] != reference, name
    namespace = kernel_namespace()
    run_cell_source(TEST, "<test>", namespace)
    assert all(passes_with(namespace["test_regression"], *pair) for pair in correct)
    assert not any(passes_with(namespace["test_regression"], *piece(compiled(key.TRIALS[name]))) for name in MUTANTS)


def test_the_visible_checks_hold_no_expected_value():
    from answer_key.keys import visible_keys

    for cell in visible_keys(CHAPTER).values():
        for case_key in cell.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)

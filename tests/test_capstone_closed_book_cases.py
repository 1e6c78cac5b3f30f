"""The closed-book companion of Chapter 7: its cases in-process, its references and drivers against torch."""

from __future__ import annotations

import torch

from autograder import capstone_closed_book as companion
from autograder.checks import exercises
from autograder.draw import Draw
from autograder.engine import resolve_answer
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.reduction import deletable_count, fingerprint_of, notebook_helpers, passes_with
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


class TestCapstoneClosedBookCases(ChapterCases):
    CHAPTER = CHAPTER
    NAMES = kernel_namespace()

    def answer(self, grade_id, label, source):
        namespace = dict(self.NAMES)
        run_cell_source(source, f"<{label}>", namespace)
        return resolve_answer(exercises(CHAPTER)[grade_id].answer, namespace)


def test_the_notebooks_fragment_fails_as_the_trusted_copy_does():
    assert fingerprint_of(kernel_namespace()["fragment"]) == companion.fragment_fingerprint()


def test_the_fragment_is_not_the_chapters():
    from autograder.capstone import fragment_fingerprint as chapter_fingerprint

    kind, message = companion.fragment_fingerprint()
    assert kind == "RuntimeError" and message != chapter_fingerprint()[1]
    assert "[torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1" in message


def test_the_detached_alias_shares_the_version_counter_of_the_saved_scores():
    w, x = companion.closed_book_inputs()
    scores = x @ w + 0.1
    monitor = scores.detach()
    before = scores._version
    monitor.clamp_(min=0.0)
    assert monitor.data_ptr() == scores.data_ptr() and scores._version == before + 1
    assert not monitor._is_view() and monitor._base is None


def test_the_reference_reduction_is_one_minimal():
    assert deletable_count(companion.reference_broken, companion.fragment_fingerprint()) == 0
    assert notebook_helpers(companion.reference_broken) == []


def test_a_kept_logging_line_is_found_by_the_deletion_test():
    namespace = kernel_namespace()
    run_cell_source(BROKEN_NOT_MINIMAL, "<not-minimal>", namespace)
    assert deletable_count(namespace["broken"], companion.fragment_fingerprint()) == 1


def test_the_silenced_gradient_differs_from_the_intended_one():
    assert not torch.allclose(companion.intended_gradient(), companion.data_gradient(), atol=1e-4)


def test_the_intended_gradient_follows_drawn_inputs_and_matches_the_formula():
    inputs = companion.drawn_inputs(Draw(3))
    w, x = inputs()
    scores = (x @ w + 0.1).detach()
    by_hand = x.T @ ((2 * scores + 0.1 * scores.sign()) / scores.numel())
    assert torch.allclose(companion.intended_gradient(inputs), by_hand, atol=1e-6)
    assert not torch.allclose(companion.intended_gradient(inputs), companion.intended_gradient())


def test_each_mutant_differs_from_the_reference_pair():
    target = companion.fragment_fingerprint()
    for mutant in (companion.silent_broken, companion.leaf_broken, companion.other_tensor_broken):
        assert fingerprint_of(mutant) != target
    assert fingerprint_of(companion.reference_broken) == target


def test_the_reference_test_passes_on_the_pair_and_fails_on_every_mutant():
    namespace = kernel_namespace()
    run_cell_source(TEST, "<test>", namespace)
    test = namespace["test_regression"]
    assert passes_with(test, companion.reference_broken, companion.reference_fixed)
    for broken in (companion.silent_broken, companion.leaf_broken, companion.other_tensor_broken):
        assert not passes_with(test, broken, companion.reference_fixed)
    assert not passes_with(test, companion.reference_broken, companion.data_fixed)


def test_a_drawn_stand_in_is_removed_after_the_run():
    namespace = kernel_namespace()
    run_cell_source("def fixed():\n    return closed_book_inputs()[0].sum()\n", "<stand-in>", namespace)
    kept = namespace["closed_book_inputs"]
    companion.observe_on_inputs((None, namespace["fixed"], None), companion.drawn_inputs(Draw(1)))
    assert namespace["closed_book_inputs"] is kept

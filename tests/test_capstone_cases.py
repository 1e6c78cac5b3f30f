"""Chapter 7's cases in-process, and its trusted references and drivers against torch."""

from __future__ import annotations

import re

import pytest
import torch

from autograder import capstone
from autograder.capstone import (
    capstone_inputs,
    chapter_fragment,
    data_gradient,
    fragment_fingerprint,
    intended_gradient,
    readout,
    reference_broken,
)
from autograder.checks import exercises
from autograder.engine import resolve_answer
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.reduction import (
    NOT_FAILING,
    deletable_count,
    failure_of,
    fingerprint_of,
    notebook_helpers,
    passes_with,
    reductions,
    still_failing_reductions,
)
from tests.cases import ChapterCases
from tests.catalog.capstone import BROKEN_NOT_MINIMAL, TEST, TEST_NOTHING
from tests.grading import run_cell_source


def notebook_cell(grade_id: str) -> str:
    notebook = read_notebook(Course().source_notebook("capstone"))
    return next(c.source for c in notebook.cells if nbgrader_meta(c).get("grade_id") == grade_id)


def kernel_namespace() -> dict:
    """What an answer sees in the chapter's kernel: the setup cell, then the fragment's cell."""
    namespace: dict = {"__name__": "__main__"}
    run_cell_source(notebook_cell("capstone-setup") + "\n" + notebook_cell("capstone-why-fragment"),
                    "<chapter>", namespace)
    return namespace


class TestCapstoneCases(ChapterCases):
    CHAPTER = "capstone"
    NAMES = kernel_namespace()

    def answer(self, grade_id, label, source):
        namespace = dict(self.NAMES)
        run_cell_source(source, f"<{label}>", namespace)
        return resolve_answer(exercises("capstone")[grade_id].answer, namespace)


def test_the_notebooks_fragment_fails_as_the_trusted_copy_does():
    namespace = kernel_namespace()
    assert fingerprint_of(namespace["training_fragment"]) == fragment_fingerprint()


def test_the_fragments_fingerprint_names_tanhs_saved_output():
    kind, message = fragment_fingerprint()
    assert kind == "RuntimeError"
    assert "[torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1" in message
    assert "Hint" not in message


def test_the_reference_reduction_is_one_minimal_and_fails_like_the_fragment():
    assert failure_of(reference_broken) == failure_of(chapter_fragment)
    assert failure_of(reference_broken)["by_torch"]
    assert deletable_count(reference_broken, fragment_fingerprint()) == 0


def test_the_deletion_test_names_each_statement_that_can_go():
    namespace = kernel_namespace()
    run_cell_source(BROKEN_NOT_MINIMAL, "<not-minimal>", namespace)
    found = still_failing_reductions(namespace["broken"], fragment_fingerprint())
    assert found == ["confidence.mul_(100)"]


def test_nested_statements_are_deleted_too_and_a_docstring_is_kept():
    source = '''
def broken():
    """Kept: a docstring is not a statement of the failure."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    if True:
        unused = hidden.detach()
        hidden[:, 4:].mul_(100)
    hidden.sum().backward()
'''
    namespace = kernel_namespace()
    run_cell_source(source, "<nested>", namespace)
    deleted = [line for line, _reduced in reductions(namespace["broken"])]
    assert deleted == ["w, x = capstone_inputs()", "hidden = (x @ w).tanh()", "if True:",
                       "hidden.sum().backward()", "unused = hidden.detach()", "hidden[:, 4:].mul_(100)"]
    assert still_failing_reductions(namespace["broken"], fragment_fingerprint()) == ["unused = hidden.detach()"]


def test_a_function_that_does_not_fail_is_not_reduced():
    assert still_failing_reductions(intended_gradient, fragment_fingerprint()) == NOT_FAILING


def test_helpers_defined_in_the_notebook_are_named_and_torch_is_not():
    namespace = kernel_namespace()
    run_cell_source("def broken():\n    training_fragment()\n", "<helper>", namespace)
    assert notebook_helpers(namespace["broken"]) == ["training_fragment"]
    assert notebook_helpers(reference_broken) == []


def test_the_silenced_gradient_differs_from_the_intended_one_only_in_the_dashboard_units():
    intended, silenced = intended_gradient(), data_gradient()
    assert intended.shape == (4, 6)
    assert torch.allclose(intended[:, :4], silenced[:, :4])
    assert not torch.allclose(intended[:, 4:], silenced[:, 4:], atol=1e-3)


def test_the_intended_gradient_is_the_softmax_one():
    w, x = capstone_inputs()
    probs = torch.softmax((x @ w).tanh() @ readout(), dim=1)
    loss = -probs[torch.arange(5), torch.tensor(capstone.TARGETS)].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    assert torch.allclose(w.grad, intended_gradient(), atol=1e-6)


@pytest.mark.parametrize("mutant", [capstone.silent_broken, capstone.leaf_broken, capstone.other_tensor_broken])
def test_each_broken_mutant_fails_otherwise(mutant):
    assert fingerprint_of(mutant) != fragment_fingerprint()


def test_the_mutation_driver_restores_the_learners_names():
    namespace = kernel_namespace()
    run_cell_source(TEST + "\nbroken = 'mine'\n", "<test>", namespace)
    assert passes_with(namespace["test_regression"], reference_broken, capstone.reference_fixed)
    assert not passes_with(namespace["test_regression"], capstone.silent_broken, capstone.reference_fixed)
    assert namespace["broken"] == "mine" and "fixed" not in namespace


def test_a_test_that_asserts_nothing_passes_every_mutant():
    namespace = kernel_namespace()
    run_cell_source(TEST_NOTHING, "<nothing>", namespace)
    assert passes_with(namespace["test_regression"], capstone.silent_broken, capstone.data_fixed)


def test_pytest_raises_without_match_accepts_another_runtime_error():
    with pytest.raises(RuntimeError, match=re.escape("leaf Variable")):
        capstone.leaf_broken()

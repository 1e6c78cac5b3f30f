"""Chapter 7's checks: the evidence of the version-counter mechanism tells torch's error from
forgeries, 1-minimality counts the learner's own statements, mutation grading needs two correct
pairs first, the key agrees with torch, the page does not answer its own exercises, and the
catalogue's answers get the verdicts they should."""

from __future__ import annotations

import sys

import pytest
import torch

from answer_key import capstone as key
from autograder.chapters.capstone import CORRECT, MUTANTS, PROVIDERS, capstone_inputs, readout
from autograder.engine.observe import resolve_answer
from autograder.engine.reduction import (
    deletions_keeping,
    passes_with,
    reductions,
    still_failing_reductions,
    witnessed_failure,
)
from autograder.engine.trials import compiled, piece
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from tests.cases import ChapterCases
from tests.catalog.capstone import BROKEN_NOT_MINIMAL, EXPLOITS, FIXED, FRAGMENTS, MESSAGE, RIGHT, TEST, TEST_NOTHING
from tests.grading import run_cell_source


def notebook_cells() -> dict[str, str]:
    notebook = read_notebook(Course().source_notebook("capstone"))
    return {nbgrader_meta(c).get("grade_id"): c.source for c in notebook.cells}


def kernel_namespace() -> dict:
    """What an answer sees in the chapter's kernel: the setup cell, then the fragments' cells."""
    cells = notebook_cells()
    namespace: dict = {"__name__": "__main__"}
    run_cell_source("\n".join(cells[name] for name in ("capstone-setup", *FRAGMENTS)), "<chapter>", namespace)
    return namespace


@pytest.fixture(autouse=True)
def _restore_the_modules():
    modules = [sys.modules[name] for name in ("autograder.chapters.capstone", "autograder.engine.reduction")]
    kept = [dict(vars(module)) for module in modules]
    yield
    for module, names in zip(modules, kept, strict=True):
        vars(module).clear()
        vars(module).update(names)


class TestCapstoneCases(ChapterCases):
    CHAPTER = "capstone"
    NAMES = kernel_namespace()

    def answer(self, grade_id, label, source):
        from autograder.engine.cases import exercises

        namespace = dict(self.NAMES)
        if grade_id == "capstone-regression-test":  # its visible checks run it on the learner's own pair
            run_cell_source(RIGHT["capstone-regression"][0][1], "<capstone-regression>", namespace)
        try:
            run_cell_source(source, f"<{self.CHAPTER}:{grade_id}:{label}>", namespace)
        except NotImplementedError:
            pass
        return resolve_answer(exercises("capstone")[grade_id].answer, namespace)


def _defined(source: str, name: str = "broken"):
    namespace = kernel_namespace()
    run_cell_source(source, f"<{name}>", namespace)
    return namespace[name]


def test_the_notebooks_fragment_fails_as_the_reference_reduction_does():
    fragment = kernel_namespace()["training_fragment"]
    assert witnessed_failure(fragment, PROVIDERS)["raised"] == witnessed_failure(key.broken, PROVIDERS)["raised"]


def test_the_second_fragment_fails_as_its_reference_reduction_does_through_an_alias():
    """The notebook's gated_step and the key's reduction raise the same error; only the reduction's
    own statements make the writes, three of them, through a reshape of sigmoid's output."""
    fragment = witnessed_failure(kernel_namespace()["gated_step"], PROVIDERS)
    reduced = witnessed_failure(key.gated_broken, PROVIDERS)
    assert fragment["raised"] == reduced["raised"] and "output 0 of Sigmoid, is at version 3" in reduced["raised"][1]
    assert fragment["torch calls made by other functions"] == ["for_the_plot"]
    assert reduced["written through an alias"] and reduced["torch calls made by other functions"] == []
    assert deletions_keeping(key.gated_broken) == 0


def test_the_mechanism_leaves_evidence_and_no_forgery_does():
    real = witnessed_failure(key.broken, PROVIDERS)
    assert real["raised"][1] == MESSAGE
    assert real["raised by a backward it called"] and real["a saved tensor is stale with that message"]
    for label in ("torch-check", "assert-async", "rewritten-args", "generator-throw", "compiled-as-torch",
                  "dynamic-helper", "switches-off-the-witness"):
        source = dict(EXPLOITS["capstone-regression"])[label]
        found = witnessed_failure(_defined(source), PROVIDERS)
        assert not (found["raised by a backward it called"] and found["a saved tensor is stale with that message"]
                    and found["torch calls made by other functions"] == []), label


def test_autograd_grad_counts_as_a_backward():
    def through_grad():
        w, x = capstone_inputs()
        hidden = (x @ w).tanh()
        hidden[:, 4:].mul_(100)
        torch.autograd.grad(hidden.sum(), w)

    found = witnessed_failure(through_grad, PROVIDERS)
    assert found["raised by a backward it called"] and found["a saved tensor is stale with that message"]


HAND_RAISED = {  # how broken() might write the fragment's error itself
    "the whole message": f"raise RuntimeError({MESSAGE!r})",
    "the message up to Hint": f"raise RuntimeError({MESSAGE.split(' Hint:')[0]!r})",
    "from a caught error": "try:\n        1 / 0\n    except ZeroDivisionError as err:\n"
                           f"        raise RuntimeError({MESSAGE!r}) from err",
}
RAISED_BY_TORCH = {  # broken() whose error torch raises: in its C++ code, or in a raise of its own Python code
    "the leaf's refusal": "w, x = capstone_inputs()\n    w.mul_(2)",
    "a backward's stale save": "w, x = capstone_inputs()\n    hidden = (x @ w).tanh()\n    hidden.mul_(2)\n"
                               "    hidden.sum().backward()",
    "a non-scalar root": "w, x = capstone_inputs()\n    torch.autograd.grad(x @ w, w)",
    "an error caught and raised again": "w, x = capstone_inputs()\n    try:\n        w.mul_(2)\n"
                                        "    except RuntimeError as err:\n        raise err",
}


@pytest.mark.parametrize("body", [*HAND_RAISED.values(), *RAISED_BY_TORCH.values()],
                         ids=[*HAND_RAISED, *RAISED_BY_TORCH])
def test_an_error_raised_by_hand_is_told_apart_from_one_torch_raised(body):
    found = witnessed_failure(_defined(f"def broken():\n    {body}\n"), PROVIDERS)
    assert found["raised"] is not None
    assert found["raised by a raise statement written in the answer"] == (body in HAND_RAISED.values())


def test_the_message_says_an_error_was_raised_by_hand_whatever_its_words():
    """An error written by hand differs from the reference first in the fact that says so, even
    when its words are not the fragment's (no model could match every text)."""
    cases = TestCapstoneCases()
    source = f"def broken():\n    {HAND_RAISED['the message up to Hint']}\n" + FIXED
    _visible, decided = cases.verdicts("capstone-regression", cases.answer("capstone-regression", "by-hand", source))
    first = decided.failures[0].line
    assert "yours {'raised by a raise statement written in the answer': True" in first, first


def test_a_helper_that_makes_the_failure_is_named_and_vouches_for_nothing():
    found = witnessed_failure(_defined("def broken():\n    training_fragment()\n"), PROVIDERS)
    assert found["torch calls made by other functions"] == ["training_fragment"]
    assert not found["raised by a backward it called"]


WRITES = {  # how broken() writes tanh's saved output in place, and whether that goes through an alias
    "hidden[:, 4:].mul_(100)": True,
    "hidden.detach().mul_(100)": True,
    "hidden.detach()[:, 4:].mul_(100)": True,
    "hidden.T.mul_(100)": True,
    "with torch.no_grad():\n        hidden[:, 4:].mul_(100)": True,
    "with torch.no_grad():\n        hidden.detach().mul_(100)": True,
    "hidden.mul_(100)": False,
    "hidden += 1": False,
    "with torch.no_grad():\n        hidden.mul_(100)": False,
    "hidden[:, 4:] = hidden[:, 4:] * 100": True,  # torch copies into the view hidden[:, 4:]
    "hidden[0] = 0.0": True,
    "with torch.no_grad():\n        hidden[:, 4:] = 0.0": True,
    "hidden[...] = hidden * 2": False,  # hidden[...] is hidden itself
    "hidden[torch.tensor([0, 1])] = 0.0": False,  # index_put_ into hidden
}


@pytest.mark.parametrize("write", WRITES)
def test_the_witness_sees_whether_the_write_went_through_an_alias(write):
    """Every write fails with the fragment's fingerprint and its evidence, under torch.no_grad() too
    (whose view's node torch refuses to give, and whose grad mode switch is nobody's torch call);
    only the alias differs."""
    found = witnessed_failure(_defined(f"""
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = hidden.sum()
    {write}
    loss.backward()
"""), PROVIDERS)
    assert found["raised"] == ["RuntimeError", MESSAGE]
    assert found["raised by a backward it called"] and found["a saved tensor is stale with that message"]
    assert found["torch calls made by other functions"] == []
    assert found["written through an alias"] is WRITES[write]


@pytest.mark.parametrize(("writes", "through_an_alias"), [
    ("strip[0:10].clamp_(0.1, 0.9)\n    strip[10:20].clamp_(0.1, 0.9)\n    strip[20:].clamp_(0.1, 0.9)", True),
    ("strip[0:10].clamp_(0.1, 0.9)\n    strip[10:20].clamp_(0.1, 0.9)\n    gates.clamp_(0.1, 0.9)", False),
    ("gates.clamp_(0.1, 0.9)\n    strip[10:20].clamp_(0.1, 0.9)\n    strip[20:].clamp_(0.1, 0.9)", False),
    ("for_the_plot(gates)", True),  # the helper's writes are the answer's too: a view of the gates
], ids=["all-through-the-strip", "last-direct", "first-direct", "by-the-helper"])
def test_every_write_must_go_through_an_alias_whoever_makes_it(writes, through_an_alias):
    """Three writes make the second fragment's version 3: one made on the gates themselves is a
    direct write, whichever it is, and a helper's writes count as the reduction's."""
    found = witnessed_failure(_defined(f"""
def broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    {writes}
    gates.sum().backward()
"""), PROVIDERS)
    assert "output 0 of Sigmoid, is at version 3" in found["raised"][1]
    assert found["written through an alias"] is through_an_alias


@pytest.mark.parametrize(("tanh", "loss"), [("torch.nn.Tanh()(x @ w)", "hidden.sum()"),
                                          ("F.tanh(x @ w)", "hidden.sum()"),
                                          ("(x @ w).tanh()", "(1 - hidden).sum()")])
def test_torchs_own_python_is_no_function_of_the_notebook(tanh, loss):
    """A layer's ``forward``, ``F.tanh`` and the operator behind ``1 - t`` call torch from Python
    of torch's own: those calls are the reduction's, not another function's."""
    found = witnessed_failure(_defined(f"""
def broken():
    w, x = capstone_inputs()
    hidden = {tanh}
    hidden[:, 4:].mul_(100)
    {loss}.backward()
"""), PROVIDERS)
    assert found["torch calls made by other functions"] == []
    assert found["raised by a backward it called"] and found["written through an alias"]


def test_a_write_through_a_view_of_a_tensor_that_needs_no_gradient_is_not_the_alias_of_the_failure():
    """The batch ``x`` needs no gradient: writing it through a view does not make the direct write
    of ``hidden`` a write through an alias."""
    found = witnessed_failure(_defined("""
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = hidden.sum()
    x[:, 1:].mul_(2)
    hidden.mul_(100)
    loss.backward()
"""), PROVIDERS)
    assert found["a saved tensor is stale with that message"] and not found["written through an alias"]


def test_the_deletion_count_is_that_of_the_learners_own_statements():
    assert deletions_keeping(key.broken) == 0
    assert deletions_keeping(_defined(BROKEN_NOT_MINIMAL)) == 2
    assert still_failing_reductions(_defined(BROKEN_NOT_MINIMAL), ("RuntimeError", MESSAGE.split(" Hint:")[0])) == [
        "confidence.mul_(100)", "send_to_dashboard(confidence, dashboard)"]


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
    deleted = [line for line, _reduced in reductions(_defined(source))]
    assert deleted == ["w, x = capstone_inputs()", "hidden = (x @ w).tanh()", "if True:",
                       "hidden.sum().backward()", "unused = hidden.detach()", "hidden[:, 4:].mul_(100)"]
    assert deletions_keeping(_defined(source)) == 1


CORRECT_PAIRS = [piece(compiled(key.TRIALS[name])) for name in CORRECT]


def test_every_mutant_fails_otherwise_and_both_correct_pairs_fail_alike():
    reference = witnessed_failure(CORRECT_PAIRS[0][0], PROVIDERS)["raised"]
    second = witnessed_failure(CORRECT_PAIRS[1][0], PROVIDERS)["raised"]
    assert reference[1].split(" Hint:")[0] == second[1].split(" Hint:")[0]
    assert set(key.TRIALS) == {*CORRECT, *MUTANTS}
    for name in MUTANTS:
        broken, fixed = piece(compiled(key.TRIALS[name]))
        if name.startswith("fixed-"):
            assert not torch.allclose(fixed(), CORRECT_PAIRS[0][1](), atol=1e-4)
        else:
            assert witnessed_failure(broken, PROVIDERS)["raised"] != reference, name
    assert torch.allclose(CORRECT_PAIRS[0][1](), CORRECT_PAIRS[1][1](), atol=1e-6)


def test_every_correct_pair_sends_what_a_repaired_fragment_sends():
    """4.2 asks a repaired fragment to send the confidence and the dashboard units: a test that checks
    what ``fixed()`` sent passes on the grader's correct pairs as on a learner's own."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh().detach()
    expected = ((hidden @ readout()).softmax(dim=1).amax(dim=1) * 100, hidden[:, 4:] * 100)
    for _broken, fixed in CORRECT_PAIRS:
        sent: list[tuple] = []
        fixed.__globals__["send_to_dashboard"] = lambda *values, sent=sent: sent.append(values)
        fixed()
        assert len(sent) == 1 and len(sent[0]) == 2, [len(values) for values in sent]
        for value, wanted in zip(sent[0], expected, strict=True):
            torch.testing.assert_close(value, wanted)


def test_mutation_grading_needs_the_test_to_pass_on_both_correct_pairs():
    good = _defined(TEST, "test_regression")
    assert all(passes_with(good, *pair) for pair in CORRECT_PAIRS)
    assert not any(passes_with(good, *piece(compiled(key.TRIALS[name]))) for name in MUTANTS)
    nothing = _defined(TEST_NOTHING, "test_regression")
    assert passes_with(nothing, *piece(compiled(key.TRIALS["broken-no-longer-raises"])))


def test_the_key_agrees_with_torch():
    values = key._selftest()
    assert values == {"q1": True, "q2": False, "q3": 2, "q4": True}
    assert key.fingerprint(key.broken) == ("RuntimeError", MESSAGE.split(" Hint:")[0])


def test_the_page_does_not_answer_its_exercises():
    cells = notebook_cells()
    own = {"capstone-selftest-task", "capstone-selftest", "capstone-fingerprint", "capstone-regression",
           "capstone-regression-test"}
    page = "\n".join(source for gid, source in cells.items() if gid not in own)
    assert "fingerprint_of" not in page and "def fingerprint" not in page
    for said in ("grad(loss, w)", "hidden[:, 4:] * 100", "mul_(10).mul_(10)", "match='output 0 of Tanh'",
                 'match="output 0 of Tanh"'):
        assert said not in page, said


def test_every_fingerprint_check_runs_on_a_failure_with_a_hint_and_on_code_that_passes():
    from autograder.chapters.capstone import fingerprint as declared

    for case in declared.cases:
        for seed in (1, 2, 3):
            found = [key.fingerprint(*inputs) for inputs in case.draws(seed)]
            assert None in found, case.name
            assert any(f is not None and f[0] == "RuntimeError" for f in found), case.name

"""Chapter 7's cases and its regression-test runner, in-process."""

import pytest
import torch

from autograder.capstone import (
    _data_gradient,
    capstone_inputs,
    classify_failure,
    intended_gradient,
    reference_broken,
    regression_module,
    run_regression_test,
)
from autograder.checks import exercises, run
from tests.catalog.capstone import BROKEN, FIXED, RIGHT, WRONG


def answer_of(grade_id: str, label: str, source: str):
    names = {"torch": torch, "capstone_inputs": capstone_inputs}
    exec(compile(source, f"<{label}>", "exec"), names)
    if grade_id == "capstone-regression":
        return {"broken": names["broken"], "fixed": names["fixed"]}
    return names["SELFTEST"]


def test_inputs_are_fresh_leaves_on_every_call():
    (w1, x1), (w2, _) = capstone_inputs(), capstone_inputs()
    assert w1.is_leaf and w1.requires_grad and not x1.requires_grad and w1 is not w2 and torch.equal(w1, w2)


def test_the_fragment_failure_is_exps_saved_output():
    assert classify_failure(reference_broken) == "version-counter RuntimeError (saved by Exp)"


def test_the_silenced_gradient_differs_from_the_intended_one_and_equals_the_detached_one():
    intended = intended_gradient()
    assert intended.shape == (3, 4)
    assert not torch.allclose(_data_gradient(), intended, atol=1e-4)
    w, x = capstone_inputs()
    e = (x @ w).exp()
    (grad,) = torch.autograd.grad(-(e / e.sum(1, keepdim=True).detach())[torch.arange(5), torch.tensor(
        [0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum(), w)
    assert torch.allclose(grad, _data_gradient(), atol=1e-6)
    w, x = capstone_inputs()
    probs = torch.softmax(x @ w, dim=1)
    (-probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()).backward()
    assert torch.allclose(w.grad, intended, atol=1e-6)


@pytest.mark.parametrize(
    ("grade_id", "label", "source"),
    [(gid, label, src) for gid, answers in RIGHT.items() for label, src in answers],
)
def test_right_answers_pass_every_case(grade_id, label, source):
    answer = answer_of(grade_id, label, source)
    assert run(grade_id, answer, hidden=False) == []
    assert run(grade_id, answer, hidden=True) == []


@pytest.mark.parametrize(
    ("grade_id", "label", "source", "message"),
    [(gid, label, src, msg) for gid, answers in WRONG.items() for label, src, msg in answers],
)
def test_wrong_answers_fail_with_their_misconception(grade_id, label, source, message):
    answer = answer_of(grade_id, label, source)
    failures = run(grade_id, answer, hidden=False) + run(grade_id, answer, hidden=True)
    assert failures, f"{label} earned full points"
    assert any(message in failure.misconception for failure in failures), [f.misconception for f in failures]


def test_every_exercise_has_visible_and_hidden_cases():
    for grade_id, exercise in exercises("capstone").items():
        assert exercise.selected(hidden=False) and exercise.selected(hidden=True), grade_id


TESTS = '''
def test_broken_still_raises():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        broken()


def test_fixed_gives_the_softmax_gradient():
    w, x = capstone_inputs()
    probs = torch.softmax(x @ w, dim=1)
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''


def _cell_namespace(tmp_path, source: str) -> dict:
    # inspect.getsource needs a file, as a notebook cell has through linecache.
    path = tmp_path / "cell.py"
    path.write_text(source)
    names = {"torch": torch, "capstone_inputs": capstone_inputs, "pytest": pytest}
    exec(compile(source, str(path), "exec"), names)
    return names


def test_the_runner_reports_each_test_of_the_learner(tmp_path):
    report = run_regression_test(_cell_namespace(tmp_path, BROKEN + FIXED + TESTS))
    assert report == "test_broken_still_raises: passed\ntest_fixed_gives_the_softmax_gradient: passed"


def test_the_runner_shows_pytests_report_when_a_test_fails(tmp_path):
    wrong = WRONG["capstone-regression"][0][1]  # broken() no longer raises
    report = run_regression_test(_cell_namespace(tmp_path, wrong + TESTS))
    assert report.startswith("test_broken_still_raises: FAILED\ntest_fixed_gives_the_softmax_gradient: passed")
    assert "DID NOT RAISE" in report


def test_the_runner_asks_for_the_functions_when_they_are_missing(tmp_path):
    assert regression_module(_cell_namespace(tmp_path, BROKEN)) is None
    assert run_regression_test({}).startswith("Define broken(), fixed() and at least one test_")


def test_the_runner_stops_a_test_that_hangs(tmp_path):
    hanging = BROKEN + FIXED + "\n\ndef test_hangs():\n    import time\n    time.sleep(60)\n"
    assert "did not finish within 3 s" in run_regression_test(_cell_namespace(tmp_path, hanging), timeout=3)

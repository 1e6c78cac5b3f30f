"""Chapter 2's cases: their expectations agree with torch and with the curriculum's contract."""

import pytest
import torch

from autograder.checks import exercises, run
from autograder.inplace import (
    SAVES_OPS,
    backward_survives,
    drive_gate,
    drive_reproduce,
    gate_gradient,
    gate_reference,
    reproduce_reference,
    sample,
    what_it_saves,
)
from tests.catalog.inplace import RIGHT, WRONG

CONTRACT_SAVES = {
    "pow2": "input", "exp": "output", "sigmoid": "output", "relu": "output", "tanh": "output", "sin": "input",
    "sqrt": "output", "log": "input", "mul_const": "nothing", "add_const": "nothing",
}


def test_probing_torch_reproduces_the_contract_table():
    assert {key: what_it_saves(key) for key in SAVES_OPS} == CONTRACT_SAVES


def test_the_probe_sees_a_write_to_what_was_saved_and_only_that():
    assert not backward_survives(torch.exp, write_input=False)
    assert backward_survives(torch.exp, write_input=True)
    assert backward_survives(lambda a: a + 1, write_input=True)


def test_the_reference_repair_returns_twice_the_forward_value():
    x0 = sample(6, seed=11)
    assert torch.equal(reproduce_reference(x0), 2 * x0)


def test_the_gate_gradient_is_what_autograd_computes():
    x = sample(7, seed=12).requires_grad_(True)
    gate_reference(x).backward()
    assert torch.allclose(x.grad, gate_gradient(x.detach()))


def test_the_drivers_see_a_read_of_data_and_nothing_else():
    def through_data(x0):
        x = x0.clone().requires_grad_(True)
        y = (x**2).sum()
        x.data.add_(1)
        y.backward()
        return x.grad

    assert drive_reproduce(through_data, sample())["uses_data"]
    assert not drive_reproduce(reproduce_reference, sample())["uses_data"]

    def data_gate(x):
        h = x.sigmoid()
        h.data.mul_(2)
        return (h * x).sum()

    assert drive_gate(data_gate, sample())["uses_data"]
    assert not drive_gate(lambda x: (2 * x.sigmoid().detach() * x).sum(), sample())["uses_data"]


def test_drivers_report_the_version_error_as_data():
    def unrepaired(x0):
        x = x0.clone().requires_grad_(True)
        y = (x**2).sum()
        with torch.no_grad():
            x.add_(1)
        y.backward()
        return x.grad

    assert drive_reproduce(unrepaired, sample())["error"] == "version"

    def broken_gate(x):
        h = x.sigmoid()
        h.mul_(2)
        return (h * x).sum()

    observed = drive_gate(broken_gate, sample())
    assert observed["error"] == "version" and observed["grad"] is None


def test_every_exercise_has_visible_and_hidden_cases():
    for grade_id, exercise in exercises("inplace").items():
        assert exercise.selected(hidden=False), grade_id
        assert exercise.selected(hidden=True), grade_id
        names = [case.name for case in exercise.cases]
        assert len(names) == len(set(names)), grade_id


@pytest.mark.parametrize(
    ("grade_id", "label", "source"),
    [(gid, label, src) for gid, answers in RIGHT.items() for label, src in answers],
)
def test_right_answers_pass_every_case(grade_id, label, source):
    namespace = {"torch": torch}
    exec(compile(source, f"<{label}>", "exec"), namespace)
    answer = namespace[exercises("inplace")[grade_id].answer]
    assert run(grade_id, answer, hidden=False) == []
    assert run(grade_id, answer, hidden=True) == []


@pytest.mark.parametrize(
    ("grade_id", "label", "source", "message"),
    [(gid, label, src, msg) for gid, answers in WRONG.items() for label, src, msg in answers],
)
def test_wrong_answers_fail_with_their_misconception(grade_id, label, source, message):
    namespace = {"torch": torch}
    exec(compile(source, f"<{label}>", "exec"), namespace)
    answer = namespace[exercises("inplace")[grade_id].answer]
    failures = run(grade_id, answer, hidden=False) + run(grade_id, answer, hidden=True)
    assert failures, f"{label} earned full points"
    assert any(message in failure.misconception for failure in failures), [f.misconception for f in failures]

"""Chapter 2's cases: their expectations agree with torch and with the curriculum's contract."""

import torch

from autograder.inplace import (
    SAVES_OPS,
    backward_survives,
    drive_gate,
    gate_gradient,
    gate_reference,
    sample,
    what_it_saves,
)
from tests.cases import ChapterCases

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


def test_the_gate_gradient_is_what_autograd_computes():
    x = sample(7, seed=12).requires_grad_(True)
    gate_reference(x).backward()
    assert torch.allclose(x.grad, gate_gradient(x.detach()))


def test_the_driver_sees_a_read_of_data_and_nothing_else():
    def data_gate(x):
        h = x.sigmoid()
        h.data.mul_(2)
        return (h * x).sum()

    assert drive_gate(data_gate, sample())["uses_data"]
    assert not drive_gate(lambda x: (2 * x.sigmoid().detach() * x).sum(), sample())["uses_data"]


def test_the_driver_reports_the_version_error_as_data():
    def broken_gate(x):
        h = x.sigmoid()
        h.mul_(2)
        return (h * x).sum()

    observed = drive_gate(broken_gate, sample())
    assert observed["error"] == "version" and observed["grad"] is None


class TestInplaceCases(ChapterCases):
    CHAPTER = "inplace"
    NAMES = {"torch": torch}

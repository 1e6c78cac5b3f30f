"""Chapter 2's cases: their expectations agree with torch and with the curriculum's contract."""

import re
from pathlib import Path

import nbformat
import torch

from autograder.inplace import (
    SAVES_MORE_OPS,
    SAVES_OPS,
    backward_survives,
    drive_gate,
    gate_gradient,
    gate_reference,
    sample,
    what_it_saves,
    what_it_saves_more,
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


def _saved_by_node(op) -> str:
    """What the op's graph node holds, read from its ``_saved_*`` attributes (not by probing)."""
    a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True) * 1
    out = op(a)
    held = [getattr(out.grad_fn, name) for name in dir(out.grad_fn) if name.startswith("_saved_")]
    tensors = [t for t in held if isinstance(t, torch.Tensor)]
    if any(t.data_ptr() == a.data_ptr() for t in tensors):
        return "input"
    if any(t.data_ptr() == out.data_ptr() for t in tensors):
        return "output"
    return "nothing"


def test_the_probe_of_the_unseen_ops_agrees_with_their_saved_attributes():
    for key, (_text, op, _hidden) in SAVES_MORE_OPS.items():
        assert what_it_saves_more(key) == _saved_by_node(op), key


def test_the_unseen_ops_cover_every_answer_visibly_and_hidden():
    for hidden in (False, True):
        found = {what_it_saves_more(key) for key, (_t, _op, h) in SAVES_MORE_OPS.items() if h == hidden}
        assert found == {"input", "output", "nothing"}, hidden


def test_the_chapter_never_runs_the_unseen_ops_outside_their_exercise():
    notebook = nbformat.read(Path(__file__).parents[1] / "notebooks/inplace/inplace.ipynb", as_version=4)
    exercise_cells = ("inplace-saves-more-task", "inplace-saves-more")
    page = "\n".join(c.source for c in notebook.cells if c.get("id") not in exercise_cells)
    for key, (text, _op, _hidden) in SAVES_MORE_OPS.items():
        # As an expression of its own: "-a" inside "inplace-fix-alias" is not a negation.
        assert not re.search(rf"(?<![\w-]){re.escape(text)}(?!\w)", page), key


class TestInplaceCases(ChapterCases):
    CHAPTER = "inplace"
    NAMES = {"torch": torch}

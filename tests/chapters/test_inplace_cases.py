"""Chapter 2's checks: the key agrees with torch, the page does not answer its own exercises, and
the catalogue's answers get the verdicts they should."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import torch

from answer_key.inplace import (
    SAVES_MORE_OPS,
    SAVES_OPS,
    _selftest,
    backward_survives,
    fixed_energy,
    fixed_gate,
    fixed_residual,
    what_op_saves,
)
from autograder.chapters.inplace import SAVES_EXPRESSIONS, SAVES_MORE_EXPRESSIONS, backward_report
from autograder.engine import observe
from autograder.engine.cases import exercises
from tests.cases import ChapterCases
from tests.catalog.inplace import FORGERIES
from tests.forgeries import earned_apart

NOTEBOOK = Path(__file__).parents[2] / "notebooks/inplace/inplace.ipynb"


@pytest.fixture(autouse=True)
def _checks_restored():
    """An exploit may rebind the observing side in this process: put it back after each test."""
    point = observe.observe_point
    calls = {(g, c.name): c.call for g, ex in exercises("inplace").items() for c in ex.cases}
    yield
    observe.observe_point = point
    for g, ex in exercises("inplace").items():
        for c in ex.cases:
            object.__setattr__(c, "call", calls[(g, c.name)])


class TestInplaceCases(ChapterCases):
    CHAPTER = "inplace"
    NAMES = {"torch": torch}


def _saved_by_node(op) -> str:
    """What the op's graph nodes hold, read from their ``_saved_*`` attributes (not by probing)."""
    a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True) * 1
    out = op(a)
    held, pending = [], [out.grad_fn]
    while pending:
        node = pending.pop()
        if node is None or node is a.grad_fn:
            continue
        held += [getattr(node, name) for name in dir(node) if name.startswith("_saved_")]
        pending += [n for n, _ in node.next_functions]
    tensors = [t for t in held if isinstance(t, torch.Tensor)]
    if any(t.data_ptr() == a.data_ptr() for t in tensors):
        return "input"
    if any(t.data_ptr() == out.data_ptr() for t in tensors):
        return "output"
    return "nothing"


def test_the_probe_of_every_op_agrees_with_its_saved_attributes():
    for key, op in {**SAVES_OPS, **SAVES_MORE_OPS}.items():
        assert what_op_saves(op) == _saved_by_node(op), key


def test_the_probe_sees_a_write_to_what_was_saved_and_only_that():
    assert not backward_survives(torch.exp, write_input=False)
    assert backward_survives(torch.exp, write_input=True)
    assert backward_survives(lambda a: a + 1, write_input=True)


def test_the_ops_cover_every_answer():
    for ops, expressions in ((SAVES_OPS, SAVES_EXPRESSIONS), (SAVES_MORE_OPS, SAVES_MORE_EXPRESSIONS)):
        assert ops.keys() == expressions.keys()
        assert {what_op_saves(ops[k]) for k in expressions} == {"input", "output", "nothing"}


def _page(excluded: tuple[str, ...]) -> str:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    return "\n".join(c.source for c in notebook.cells if c.metadata["nbgrader"]["grade_id"] not in excluded)


#: The name of each op of the saves exercises, as prose would name it.
OP_NAMES = {"neg": "neg", "sub_const": "sub"}


def test_the_chapter_never_runs_the_ops_of_its_saves_exercises_nor_says_what_they_save():
    page = _page(("inplace-exercises", "inplace-saves", "inplace-saves-more-task", "inplace-saves-more"))
    for expressions in (SAVES_EXPRESSIONS, SAVES_MORE_EXPRESSIONS):
        for key, text in expressions.items():
            assert len(text) < 4 or text not in page, text
            name = OP_NAMES.get(key) or text.split("(")[0].split(".")[-1]
            word = re.escape(name)
            said = rf"\b{word}\b[^.;:]{{0,80}}\bsav(es|ed)\b|\bsav(es|ed)\b[^.;:]{{0,40}}\b{word}\b"
            assert not re.search(said, page), (key, re.search(said, page))


def test_the_self_test_answers_are_printed_nowhere_on_the_page():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    sources = "\n".join(c.source for c in notebook.cells
                        if c.metadata["nbgrader"]["grade_id"] not in ("inplace-selftest-task", "inplace-selftest"))
    for fragment in ("a.detach().mul_(2)", "a.copy_(b)", "z = y * 3", "y.detach()[0] = 5", "a * a.detach()"):
        assert fragment not in sources, fragment


def test_the_repairs_do_not_appear_on_the_page():
    page = _page(("inplace-fix-gate", "inplace-fix-alias"))
    assert "x.sigmoid() * t" not in page and "x.tanh() - s" not in page
    assert "h[1:].add_(1)" not in page
    share = _page(("inplace-fix-share-task", "inplace-fix-share"))
    assert "h /= h.sum(" not in share and "first = h[" not in share
    residual = _page(("inplace-fix-residual",))
    assert "sigmoid() * 2 - 1" not in residual and "2 * torch.sigmoid" not in residual


def test_the_self_test_answers_are_torchs():
    assert _selftest() == {"q1": 6, "q2": 1, "q3": True, "q4": 2, "q5": False}


def test_the_repair_reports_are_what_autograd_gives():
    x0 = torch.tensor([0.5, -1.0, 2.0])
    report = backward_report(fixed_gate, x0)
    s, t = torch.sigmoid(x0), torch.tanh(x0)
    assert report["backward"] is None and torch.allclose(report["value"], (s * t * (t - s * t)).sum())
    x = x0.clone().requires_grad_()
    u = torch.tanh(x)
    v = torch.sigmoid(x) * u
    (v * (u - v)).sum().backward()
    assert torch.allclose(report["grad"], x.grad)
    energy = backward_report(fixed_energy, x0)
    shifted = x0.exp() + torch.tensor([0.0, 1.0, 1.0])
    assert torch.allclose(energy["value"], (shifted * shifted).sum())
    assert torch.allclose(energy["grad"], 2 * shifted * x0.exp())
    residual = backward_report(fixed_residual, x0)
    s = torch.sigmoid(x0)
    h = (2 * s - 1).clamp(min=0) + x0
    assert torch.allclose(residual["value"], (h * h).sum())
    # The chain rule: d(h * h)/dh = 2h; dh/dx = 1 (the skip) + 2 s (1 - s) where the ReLU passes.
    assert torch.allclose(residual["grad"], 2 * h * (1 + 2 * s * (1 - s) * (x0 > 0)))


def test_each_write_of_the_residual_block_alone_still_breaks_a_saved_tensor():
    """Repairing the write the first message names shows the other: the rescale changes what
    sigmoid saved (its output, three writes later), the skip what the in-place ReLU saved. The
    report keeps who made the tensor and leaves out the version counts, which the same mistake
    reaches by more or fewer writes."""

    def refusal(*writes: str) -> str:
        h = torch.randn(5, requires_grad=True).sigmoid()
        x = h.detach()
        steps = {"rescale": lambda h: h.mul_(2).sub_(1), "rescale-out": lambda h: h * 2 - 1,
                 "relu": lambda h: h.relu_(), "skip": lambda h: h.add_(x), "skip-out": lambda h: h + x}
        for write in writes:
            h = steps[write](h)
        with pytest.raises(RuntimeError) as refused:
            (h * h).sum().backward()
        return str(refused.value)

    assert "output 0 of Relu, is at version 4; expected version 3" in refusal("rescale", "relu", "skip")
    assert "output 0 of Sigmoid, is at version 3; expected version 0" in refusal("rescale", "relu", "skip-out")
    assert "output 0 of Relu, is at version 2; expected version 1" in refusal("rescale-out", "relu", "skip")
    from answer_key.inplace import _residual_rescale_in_place, _residual_unrepaired

    reported = backward_report(_residual_unrepaired, torch.randn(5))["backward"]
    assert reported.endswith("which is output 0 of Relu, is at a later version than it was saved at.")
    assert "output 0 of Sigmoid" in backward_report(_residual_rescale_in_place, torch.randn(5))["backward"]


def test_data_gives_a_wrong_gradient_in_every_repair():
    """The catalogued .data answers are refused by their gradient, not by watching for .data."""
    from answer_key.inplace import _energy_data, _gate_data, _residual_data_rescale

    x0 = torch.tensor([0.5, -1.0, 2.0])
    repairs = ((fixed_gate, _gate_data), (fixed_energy, _energy_data), (fixed_residual, _residual_data_rescale))
    for right, data in repairs:
        ours, theirs = backward_report(right, x0), backward_report(data, x0)
        assert theirs["backward"] is None and torch.allclose(ours["value"], theirs["value"])
        assert not torch.allclose(ours["grad"], theirs["grad"])


def test_the_unrepaired_code_fails_with_torchs_version_error():
    from answer_key.inplace import _energy_unrepaired, _gate_unrepaired, _residual_unrepaired

    for broken in (_gate_unrepaired, _energy_unrepaired, _residual_unrepaired):
        assert "modified by an inplace operation" in backward_report(broken, torch.randn(4))["backward"]


@pytest.mark.parametrize("forgery", [(g, label, source) for g, found in FORGERIES.items() for label, source in found],
                         ids=lambda forgery: f"{forgery[0]}:{forgery[1]}")
def test_a_forged_observation_earns_no_more_than_the_untouched_answer(forgery):
    grade_id, label, source = forgery
    for forged, untouched in earned_apart("inplace", grade_id, source, {"torch": torch}):
        assert forged <= untouched, f"{label}: {forged} > {untouched}"


@pytest.mark.parametrize("label", ["shifted-elements", "shifted-columns"])
def test_a_shift_right_on_vectors_only_loses_the_hidden_matrix_checks(label):
    """The hidden checks draw matrices too: a shift along the wrong dimension loses exactly those."""
    from autograder.kernel import verdict
    from tests.catalog.inplace import WRONG

    source = next(src for name, src, _model in WRONG["inplace-fix-alias"] if name == label)
    namespace = {"torch": torch}
    exec(source, namespace)
    hidden = verdict("inplace-fix-alias", namespace["fixed_energy"], True, 7)
    failed = {v.case.name for v in hidden.failures}
    assert failed == {"large-matrix", "single-row"}, hidden.message()
    assert hidden.earned == hidden.possible - sum(v.case.points for v in hidden.failures)


@pytest.mark.parametrize(("grade_id", "source"), [
    ("inplace-fix-share", "def fixed_share(x):\n    return x.sum()"),
    ("inplace-fix-share", "def fixed_share(x):\n    p = x.softmax(-1)\n    return (p[..., :1] * x[..., :1]).sum()"),
    ("inplace-fix-alias", "def fixed_energy(x):\n    return (x.exp() ** 2).sum()"),
], ids=["share-sum-of-x", "share-first-times-first", "alias-no-shift"])
def test_an_answer_right_only_where_the_shape_degenerates_earns_nothing(grade_id, source):
    """On one element, one row or one column the fragment reduces to something simpler: those
    families' checks also run on the general shape, so an answer wrong there earns none of them."""
    from autograder.kernel import verdict

    namespace = {"torch": torch}
    exec(source, namespace)
    name = next(key for key in namespace if key.startswith("fixed_"))
    for seed in (7, 11, 23, 99):
        assert verdict(grade_id, namespace[name], True, seed).earned == 0

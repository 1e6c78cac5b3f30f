"""Chapter 4's checks: the drivers report what torch does, the key agrees with torch, and the
catalogue's answers get the verdicts they should."""

from pathlib import Path

import nbformat
import torch
from torch import nn

from answer_key.leaves import _selftest, accumulated_grads, hidden_grad, sgd_step
from autograder.chapters.leaves import (
    ACCUMULATE_CASES,
    HIDDEN_CASES,
    SGD_CASES,
    accumulation_witness,
    drive_accumulate,
    drive_hidden_grad,
    drive_sgd,
)
from autograder.engine.draw import Draw
from tests.cases import ChapterCases

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "leaves" / "leaves.ipynb"


class TestLeavesCases(ChapterCases):
    CHAPTER = "leaves"
    NAMES = {"torch": torch, "nn": nn}


def test_the_sgd_key_is_torch_optim_sgd_step_after_step():
    for name, (_probe, recipe, _hidden, _points) in SGD_CASES.items():
        params, loss, lr, steps = recipe(Draw(5))
        found = drive_sgd(sgd_step, params, loss, lr, steps)
        mine = [p.detach().clone().requires_grad_() for p in params]
        optimizer = torch.optim.SGD(mine, lr=lr)
        for step in range(steps):
            optimizer.zero_grad()
            loss(mine).backward()
            optimizer.step()
            assert all(torch.allclose(a, b) for a, b in zip(found["values after each step"][step], mine,
                                                            strict=True)), name
        assert all(p.grad is None for p in params), "the driver trains copies"


def test_a_write_through_data_leaves_the_version_a_no_grad_write_moves():
    params, loss, lr, steps = SGD_CASES["unused-parameter"][1](Draw(2))

    def through_data(ps, rate):
        for p in ps:
            if p.grad is not None:
                p.data -= rate * p.grad
                p.grad = None

    honest, hidden = drive_sgd(sgd_step, params, loss, lr, steps), drive_sgd(through_data, params, loss, lr, steps)
    assert honest["written where autograd sees it"][0] == [True, None]
    assert hidden["written where autograd sees it"][0] == [False, None]
    assert all(torch.equal(a, b) for a, b in zip(honest["values after each step"][-1],
                                                 hidden["values after each step"][-1], strict=True))


def test_the_accumulation_key_is_the_full_batch_gradient_of_the_mean_loss():
    for name, (_probe, recipe, _hidden, _points) in ACCUMULATE_CASES.items():
        net, loss_fn, batches, stale = recipe(Draw(7))
        found = drive_accumulate(accumulated_grads, net, loss_fn, batches, stale)
        model = net.build()
        x, y = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
        expected = torch.autograd.grad(loss_fn(model(x), y), list(model.parameters()))
        assert all(torch.allclose(g, e, atol=1e-6) for g, e in zip(found["gradients"], expected, strict=True)), name
        assert found["accumulations into each .grad"] == [len(batches)] * len(expected), name
        assert found["rows of each forward"] == sorted(len(b[0]) for b in batches), name


def test_the_witness_counts_autograds_accumulations_and_not_a_hook_called_by_hand():
    w = torch.ones(3, requires_grad=True)
    seen = []
    accumulation_witness(w, lambda leaf: seen.append(leaf.grad.clone()))
    (w * 2).sum().backward()
    (w * 3).sum().backward()
    torch.autograd.grad((w * 5).sum(), w)
    for hook in w._post_accumulate_grad_hooks.values():
        hook(w)
    assert [g.tolist() for g in seen] == [[2.0] * 3, [5.0] * 3]


def test_the_hidden_grad_key_is_autograds_derivative_and_shows_tanhs_saved_output():
    for name, (_probe, recipe, _hidden, _points) in HIDDEN_CASES.items():
        x, w = recipe(Draw(11))
        found = drive_hidden_grad(hidden_grad, x, w)
        t = torch.tanh(x.detach() @ w.detach())
        assert torch.allclose(found["gradient"], 2 * t * (1 - t**2), atol=1e-6), name
        assert len(found["what tanh's backward read"]) == 1 and torch.allclose(found["what tanh's backward read"][0], t)
        assert found["x and w left as they were"], name


def test_a_closed_form_gives_the_values_and_no_backward_evidence():
    x, w = HIDDEN_CASES["both-require-grad"][1](Draw(3))

    def closed_form(a, b):
        t = torch.tanh(a @ b)
        return (2 * t * (1 - t**2)).detach()

    found = drive_hidden_grad(closed_form, x, w)
    assert found["what tanh's backward read"] == [] and found["x and w left as they were"]
    assert torch.allclose(found["gradient"], drive_hidden_grad(hidden_grad, x, w)["gradient"])


def test_every_draw_of_a_check_is_new_per_seed_and_leaves_the_global_rng_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    from autograder.engine.cases import exercises

    for exercise in exercises("leaves").values():
        for case in exercise.cases:
            if not case.entry:
                shown = {(case.show or repr)(case.build(seed)) for seed in range(6)}
                assert len(shown) > 1, case.name
                case.draws(4)
    assert torch.equal(torch.rand(3), expected)


def test_the_selftest_key_is_what_torch_does():
    assert _selftest() == {"q1": False, "q2": True, "q3": 24.0, "q4": False, "q5": False}


def test_the_chapter_never_runs_the_selftest_situations():
    """The self-test asks about situations no cell of the chapter runs, and its prose does not state."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    selftest_cells = ("leaves-selftest-task", "leaves-selftest")
    page = "\n".join(c.source for c in notebook.cells if c.metadata["nbgrader"]["grade_id"] not in selftest_cells)
    outputs = "\n".join(str(o) for c in notebook.cells for o in c.get("outputs", []))
    for situation in ("w[:2]", "[:2].is_leaf", "** 3).sum()", "torch.full((2,), 2.0", "SGD([p]", "24.0"):
        assert situation not in page and situation not in outputs, situation


def test_the_sgd_report_puts_its_yes_or_no_facts_before_the_values():
    # A message shows the entries that differ in the report's order: a long list of values first
    # would crowd out the fact (".grad cleared") that tells a step that never clears.
    params, loss, lr, steps = SGD_CASES["linear"][1](Draw(3))

    def never_clears(ps, rate):
        with torch.no_grad():
            for p in ps:
                if p.grad is not None:
                    p -= rate * p.grad

    report = drive_sgd(never_clears, params, loss, lr, max(steps, 2))
    keys = list(report)
    assert keys[-1] == "values after each step"
    assert keys[0] == ".grad cleared after each step" and report[keys[0]] is False


def test_torch_optimizers_refuse_while_the_step_runs_and_work_again_after():
    params, loss, lr, steps = SGD_CASES["linear"][1](Draw(4))
    made, raised = [], []

    def through_torch(ps, rate):
        for attempt in (lambda: made.append(torch.optim.Adam(ps)),
                        lambda: torch.optim._functional.sgd(ps, [p.grad for p in ps], [None] * len(ps),
                                                            weight_decay=0.0, momentum=0.0, lr=rate, dampening=0.0,
                                                            nesterov=False, maximize=False)):
            try:
                attempt()
            except RuntimeError as err:
                raised.append(str(err))
        sgd_step(ps, rate)

    honest = drive_sgd(sgd_step, params, loss, lr, steps)
    found = drive_sgd(through_torch, params, loss, lr, steps)
    assert made == [] and len(raised) == 2 * steps and all("refused" in r for r in raised)
    assert all(torch.equal(a, b) for a, b in zip(found["values after each step"][-1],
                                                 honest["values after each step"][-1], strict=True))
    mine = [p.detach().clone().requires_grad_() for p in params]
    before = [p.detach().clone() for p in mine]
    loss(mine).backward()
    torch.optim.SGD(mine, lr=lr).step()
    assert not torch.equal(mine[0].detach(), before[0]), "after the call, torch.optim steps as before"


def test_the_recurrent_gradients_are_backpropagation_through_time():
    """The key's gradients, from autograd, equal the recursion written out: dL/dh_T = 2 h_T, and
    dL/dh_t = 2 h_t + (dL/dh_{t+1} * (1 - h_{t+1}^2)) W^T; the driver sees the hand-written one
    read nothing back through tanh's backward."""
    from answer_key.leaves import _by_hand, recurrent_grads
    from autograder.chapters.leaves import drive_recurrent_grads

    torch.manual_seed(0)
    h0, w = torch.randn(3, 4), torch.randn(4, 4) / 2
    for steps in (1, 2, 5):
        for ours, theirs in zip(recurrent_grads(h0, w, steps), _by_hand(h0, w, steps), strict=True):
            assert torch.allclose(ours, theirs, atol=1e-6)
    key = "tanh's backward read back h_2 … h_T"
    assert drive_recurrent_grads(recurrent_grads, h0, w, 4)[key] is True
    assert drive_recurrent_grads(_by_hand, h0, w, 4)[key] is False

"""Chapter 4's cases: trusted references agree with torch, drivers see what answers do."""

import torch
from torch import nn

from autograder.checks import exercises
from autograder.leaves import (
    drive_sgd,
    full_batch_grads,
    reference_hidden_grad,
    seeded,
    stale_grads,
    torch_sgd_step,
)
from tests.cases import ChapterCases


def test_torch_sgd_reference_matches_a_persistent_optimizer_over_several_steps():
    x, y = seeded(0, 8, 2), seeded(1, 8, 1)

    def loss_of(ps):
        return ((x @ ps[0] - y) ** 2).mean()

    start = seeded(2, 2, 1)
    observed = drive_sgd(torch_sgd_step, [start.clone().requires_grad_()], loss_of, 0.1, 4)
    w = start.clone().requires_grad_()
    optimizer = torch.optim.SGD([w], lr=0.1)
    for step in range(4):
        optimizer.zero_grad()
        loss_of([w]).backward()
        optimizer.step()
        assert torch.allclose(observed["values"][step][0], w.detach())
    assert observed["same_objects"] and observed["leaves"] and observed["requires_grad"] and observed["grads_cleared"]


def test_sgd_driver_leaves_its_inputs_alone():
    params = [seeded(3, 2).requires_grad_()]
    before = params[0].detach().clone()
    drive_sgd(torch_sgd_step, params, lambda ps: (ps[0] ** 2).sum(), 0.5, 2)
    assert torch.equal(params[0].detach(), before) and params[0].grad is None


def test_full_batch_reference_is_the_gradient_of_the_concatenated_mean_and_touches_no_grad():
    model = nn.Linear(2, 1)
    batches = [(seeded(4, 3, 2), seeded(5, 3, 1)), (seeded(6, 1, 2), seeded(7, 1, 1))]
    grads = full_batch_grads(model, nn.MSELoss(), batches)
    assert all(p.grad is None for p in model.parameters())
    x = torch.cat([b[0] for b in batches])
    y = torch.cat([b[1] for b in batches])
    nn.MSELoss()(model(x), y).backward()
    assert all(torch.allclose(g, p.grad) for g, p in zip(grads, model.parameters(), strict=True))
    assert all(torch.equal(s, torch.full_like(p, 0.5)) for s, p in zip(stale_grads(model), model.parameters(),
                                                                           strict=True))


def test_hidden_grad_reference_is_the_analytic_derivative():
    x, w = seeded(8, 3, 2), seeded(9, 2, 4)
    t = torch.tanh(x @ w)
    assert torch.allclose(reference_hidden_grad(x, w), 2 * t * (1 - t**2))
    assert torch.allclose(reference_hidden_grad(x.requires_grad_(), w), 2 * t * (1 - t**2))


def test_case_inputs_do_not_move_the_global_rng():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    for exercise in exercises("leaves").values():
        for case in exercise.cases:
            case.inputs()
    assert torch.equal(torch.rand(3), expected)


class TestLeavesCases(ChapterCases):
    CHAPTER = "leaves"
    NAMES = {"torch": torch, "nn": nn}

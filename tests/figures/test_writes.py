"""autograd_figures.writes: the watch names every in-place write, per-tensor or foreach, and its grad mode."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from autograd_figures.writes import InPlaceWatch, writes_in_place


def net() -> nn.Module:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    model(torch.randn(8, 3)).sum().backward()
    return model


@pytest.mark.parametrize(
    ("name", "expected"),
    [("add_", True), ("_foreach_add_", True), ("normal_", True),
     ("add", False), ("_foreach_sqrt", False), ("__get__", False), ("_set_grad_enabled", False)],
)
def test_which_names_write_in_place(name, expected):
    assert writes_in_place(name) is expected


@pytest.mark.parametrize("optimizer", [torch.optim.SGD, torch.optim.Adam])
def test_default_cpu_step_writes_each_parameter_with_per_tensor_ops_under_no_grad(optimizer):
    model = net()
    step = optimizer(model.parameters(), lr=0.1)
    with InPlaceWatch() as watch:
        step.step()
    assert watch.path() == "per-tensor"
    assert all(not grad for _, grad in watch.ops())
    assert watch.written(model.named_parameters()) == [name for name, _ in model.named_parameters()]
    assert watch.written(model.named_buffers()) == []


@pytest.mark.parametrize("optimizer", [torch.optim.SGD, torch.optim.Adam])
def test_foreach_step_is_seen_as_list_writes(optimizer):
    model = net()
    step = optimizer(model.parameters(), lr=0.1, foreach=True)
    with InPlaceWatch() as watch:
        step.step()
    assert watch.path() == "foreach"
    assert {name for name, _ in watch.ops()} <= {n for n in dir(torch) if n.startswith("_foreach_")}
    # One call writes all six parameters at once.
    assert max(len(call.targets) for call in watch.calls) == len(list(model.parameters()))
    assert watch.written(model.named_parameters()) == [name for name, _ in model.named_parameters()]


def test_a_hand_written_update_with_recording_on_is_seen_with_grad_enabled():
    weight = torch.ones(3)
    with InPlaceWatch() as watch:
        weight -= 0.5
        weight.add(1.0)
    assert watch.ops() == {("sub_", True)}
    assert watch.written([("weight", weight), ("other", torch.ones(1))]) == ["weight"]


def test_nothing_written_is_said():
    with InPlaceWatch() as watch:
        torch.ones(2).sum()
    assert watch.path() == "none" and watch.calls == []


def test_an_overridable_python_function_is_not_recorded():
    weight = torch.ones(3)
    with InPlaceWatch() as watch:
        nn.init.normal_(weight)
        weight.normal_()
    assert [call.name for call in watch.calls] == ["normal_"]
    assert watch.calls[0].targets == (id(weight),)
